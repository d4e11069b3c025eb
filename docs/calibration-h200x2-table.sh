#!/usr/bin/env bash
# Prints the error table of docs/calibration-h200x2.md from collsim compare's output (nothing typed by hand):
# every measured file of data/device/h200x2-2026-11-29 that compare reads, uncalibrated (--calibration none) and with
# the profile, one row per dataset: median/max |error| of time in %, over all sizes and per size regime.
# Run from the repository root after the build: docs/calibration-h200x2-table.sh [PROFILE.yaml]
set -euo pipefail
D=data/device/h200x2-2026-11-29
P=${1:-configs/calibration/h200x2-nv18-nccl2.28.yaml}
FILES=("$D/collsim-all_reduce.json" "$D/collsim-all_gather.json" "$D/collsim-sendrecv.json"
  "$D/collsim-reduce_scatter.json" "$D/collsim-broadcast.json" "$D/collsim-alltoall.json"
  "$D/collsim-sweep-NCCL_ALGO.json" "$D/collsim-sweep-NCCL_PROTO.json" "$D/collsim-sweep-NCCL_MAX_NCHANNELS.json"
  "$D/nccl-tests-all_reduce.txt" "$D/nccl-tests-all_gather.txt")
run() {
  java -jar cli/target/collsim.jar compare --summary -c "$D/nccl-topo-dump.xml" --nccl-version 2.28 \
    --calibration "$1" -m "${FILES[@]}"
}
# one line per dataset: its name, then median/max of all sizes, < 64 KiB, 64 KiB - 64 MiB, > 64 MiB
cells='
/^[^ ].*:[0-9]+ \(/ {
  id = $0; name = id; sub(/:.*/, "", name); setting = ""
  if (match(id, /NCCL_[A-Z_]+=[A-Za-z0-9]+/)) setting = ", " substr(id, RSTART, RLENGTH)
  src = name ~ /^nccl-tests/ ? "nccl-tests" : "executor"
}
/^  [a-z_]+, [0-9]+ ranks/ { coll = $1; sub(/,$/, "", coll) }
/^  \|error\| of time/ {
  n = split($0, part, "|"); row = src " " coll setting
  for (i = 3; i <= n; i++) {
    split(part[i], w, " "); med = ""; mx = ""
    for (j = 1; j <= length(w); j++) { if (w[j] == "median") med = w[j + 1]; if (w[j] == "max") mx = w[j + 1] }
    row = row "\t" med "/" mx
  }
  print row
}'
run none | awk "$cells" > /tmp/h200x2-bare.$$
run "$P" | awk "$cells" > /tmp/h200x2-cal.$$
echo "| data (2 ranks) | role | all sizes | < 64 KiB | 64 KiB - 64 MiB | > 64 MiB |"
echo "|---|---|---|---|---|---|"
paste /tmp/h200x2-bare.$$ /tmp/h200x2-cal.$$ | awk -F'\t' '{
  role = ($1 == "executor all_reduce" || $1 == "executor all_gather" || $1 == "executor sendrecv") ? "fit" : "held out"
  printf "| %s | %s | %s → %s | %s → %s | %s → %s | %s → %s |\n", $1, role, $2, $7, $3, $8, $4, $9, $5, $10
}'
rm -f /tmp/h200x2-bare.$$ /tmp/h200x2-cal.$$
