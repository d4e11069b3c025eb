#!/usr/bin/env bash
# Check `collsim tune` advice on a machine with several GPUs: build NCCL's example tuner plugin from an NCCL
# source checkout on that machine, run nccl-tests with and without the plugin and the written config file, and keep
# the raw outputs. Nothing of NCCL is part of collsim: the plugin is built from the checkout you point at.
#
# usage: benchmarks/nccl-tuner-check.sh NCCL_SRC NCCL_TESTS_BUILD TUNE_DIR OUT_DIR [COLLECTIVE [NGPUS [MIN [MAX]]]]
#   NCCL_SRC          an NCCL source checkout (plugins/tuner/example, or ext-tuner/example before 2.24)
#   NCCL_TESTS_BUILD  nccl-tests build folder (holds all_reduce_perf, ...)
#   TUNE_DIR          the folder `collsim tune -o` wrote (nccl_tuner.conf, nccl_env.sh, tune.txt)
#   OUT_DIR           where the raw outputs go (created; commit it with the data)
#   COLLECTIVE        nccl-tests name without _perf (default all_reduce), NGPUS (default 2), MIN/MAX (8, 8G)
# what to look for: in with-plugin.txt, "TUNER/ExamplePlugin: Applied config" lines name the entries used (with
# "channels=N" where the file forces a count), and the time column moves against baseline.txt where tune.txt says
# "use ..." (summary.txt puts the two side by side). Refused (exit 2) before anything runs: a file that does not cover
# MIN..MAX for COLLECTIVE on NGPUS ranks, since the example plugin gives uncovered calls one channel.
set -euo pipefail
NCCL_SRC=${1:?NCCL source checkout}; TESTS=${2:?nccl-tests build folder}; TUNE=${3:?collsim tune output folder}
OUT=${4:?output folder}; COLL=${5:-all_reduce}; NGPUS=${6:-2}; MIN=${7:-8}; MAX=${8:-8G}

PLUGIN_DIR="$NCCL_SRC/plugins/tuner/example"
[ -d "$PLUGIN_DIR" ] || PLUGIN_DIR="$NCCL_SRC/ext-tuner/example"
[ -d "$PLUGIN_DIR" ] || { echo "no tuner example under $NCCL_SRC (plugins/tuner/example or ext-tuner/example)" >&2; exit 2; }
[ -x "$TESTS/${COLL}_perf" ] || { echo "no $TESTS/${COLL}_perf" >&2; exit 2; }
[ -f "$TUNE/nccl_tuner.conf" ] || { echo "no $TUNE/nccl_tuner.conf (run collsim tune -o $TUNE)" >&2; exit 2; }

# The example plugin runs a call that matches no line on ONE channel (plugin.c sets *nChannels = 1 before matching,
# NCCL 2.27-2.30), so every size this run sweeps must be covered by the file for this collective and rank count, or
# the with-plugin times would measure one channel, not the advice. nccl-tests sizes are what NCCL selects on.
bytes() {
  case "$1" in
    *[kK]) echo $(( ${1%?} * 1024 )) ;; *[mM]) echo $(( ${1%?} * 1048576 )) ;;
    *[gG]) echo $(( ${1%?} * 1073741824 )) ;; *) echo $(( $1 )) ;;
  esac
}
[[ "$NGPUS" =~ ^[1-9][0-9]*$ ]] || { echo "NGPUS must be a positive integer, got '$NGPUS'" >&2; exit 2; }
for v in "$MIN" "$MAX"; do
  [[ "$v" =~ ^[0-9]+[kKmMgG]?$ ]] || { echo "MIN/MAX must be sizes like 8, 64K, 8G, got '$v'" >&2; exit 2; }
done
LO=$(bytes "$MIN"); HI=$(bytes "$MAX")
PCOLL=${COLL//_/}
SPAN=$(awk -F, -v c="$PCOLL" -v n="$NGPUS" '$1 !~ /^#/ && $1 == c && ($8 == n || $8 == -1) {
    if (lo == "" || $2 < lo) lo = $2; if (hi == "" || $3 > hi) hi = $3 }
  END { if (lo != "") print lo, hi }' "$TUNE/nccl_tuner.conf")
[ -n "$SPAN" ] || { echo "$TUNE/nccl_tuner.conf has no $PCOLL line for $NGPUS ranks: under the example plugin every" \
  "call would run on one channel (run collsim tune for $PCOLL with --ranks $NGPUS)" >&2; exit 2; }
read -r FLO FHI <<< "$SPAN"
if [ "$LO" -lt "$FLO" ] || [ "$HI" -gt "$FHI" ]; then
  echo "sizes $LO..$HI B are not all covered by $TUNE/nccl_tuner.conf ($PCOLL, $NGPUS ranks: $FLO..$FHI B); uncovered" \
    "calls would run on one channel under the example plugin: pass MIN/MAX inside it or re-run collsim tune -b/-e" >&2
  exit 2
fi
if awk -F, '$1 !~ /^#/ && NF >= 6 && $6 == -1 { f = 1 } END { exit !f }' "$TUNE/nccl_tuner.conf"; then
  echo "warning: lines with channels -1 run on one channel under the example plugin (0 keeps NCCL's count)" >&2
fi
mkdir -p "$OUT"

make -C "$PLUGIN_DIR" > "$OUT/plugin-build.txt" 2>&1
SO=$(find "$PLUGIN_DIR" -maxdepth 2 -name 'libnccl-tuner*.so' | head -1)
[ -n "$SO" ] || { echo "plugin build produced no libnccl-tuner*.so (see $OUT/plugin-build.txt)" >&2; exit 1; }

cp "$TUNE/nccl_tuner.conf" "$TUNE/tune.txt" "$OUT/"
{
  echo "#@ host: $(hostname); date: $(date -u +%FT%TZ)"
  echo "#@ gpus: $(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | tr -s ' ' | paste -sd';')"
  echo "#@ plugin: $SO (built from $PLUGIN_DIR, $(git -C "$NCCL_SRC" describe --tags --always 2>/dev/null || echo unknown))"
} > "$OUT/machine.txt"

ARGS=(-b "$MIN" -e "$MAX" -f 2 -g "$NGPUS" -w 5 -n 20)
echo "#@ command: $TESTS/${COLL}_perf ${ARGS[*]} (no tuner plugin)" > "$OUT/baseline.txt"
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING "$TESTS/${COLL}_perf" "${ARGS[@]}" >> "$OUT/baseline.txt" 2>&1

echo "#@ command: NCCL_TUNER_PLUGIN=$SO NCCL_TUNER_CONFIG_FILE=nccl_tuner.conf $TESTS/${COLL}_perf ${ARGS[*]}" \
  > "$OUT/with-plugin.txt"
NCCL_TUNER_PLUGIN="$SO" NCCL_TUNER_CONFIG_FILE="$OUT/nccl_tuner.conf" NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING \
  "$TESTS/${COLL}_perf" "${ARGS[@]}" >> "$OUT/with-plugin.txt" 2>&1

# side by side: size, out-of-place time without and with the plugin (nccl-tests rows: size count type redop root time)
rows() { awk '$1 ~ /^[0-9]+$/ && NF >= 9 { print $1, $6 }' "$1"; }
{
  echo "# size_bytes time_us_baseline time_us_with_plugin change_percent"
  join <(rows "$OUT/baseline.txt" | sort -k1,1) <(rows "$OUT/with-plugin.txt" | sort -k1,1) | sort -n |
    awk '{ printf "%s %s %s %.1f\n", $1, $2, $3, ($2 > 0 ? 100 * ($2 - $3) / $2 : 0) }'
  echo "# plugin entries applied: $(grep -c 'TUNER/ExamplePlugin: Applied config' "$OUT/with-plugin.txt" || true)"
  echo "# of which forced a channel count: $(grep -c 'TUNER/ExamplePlugin: Applied config.*channels=[1-9]' \
    "$OUT/with-plugin.txt" || true) (channels=0 or default: NCCL's own count)"
  echo "# plugin configs loaded: $(grep -m1 -o 'Loaded [0-9]* tuning configurations' "$OUT/with-plugin.txt" || echo none)"
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"
