#!/bin/sh
# Runs nccl-tests binaries the user already built and the collsim executor with the same flags, alternating
# ROUNDS times (default 3) per collective, and prints both tables side by side (medians over the rounds) with
# their differences and the accuracy targets (CompareMain). Nothing is built here.
#   compare-nccl-tests NCCL_TESTS_BUILD_DIR OUT_DIR [collective ...] [-- nccl-tests flags]
# Default collectives: all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv
# Default flags: -b 8 -e 1G -f 4 -g 1 -w 5 -n 50. COLLSIM_FLAGS adds flags for collsim only (e.g. --comm-init all).
# Exit codes: 0 every target met; 2 usage error (nothing run); 4 a target missed or a side gave no rows;
# 5 no GPU, driver, CUDA or NCCL (the executor's one line is printed; nothing else is run).
set -eu
DIR="$(cd "$(dirname "$0")" && pwd)"
usage() {
  echo "usage: compare-nccl-tests NCCL_TESTS_BUILD_DIR OUT_DIR [collective ...] [-- nccl-tests flags]"
  echo "  NCCL_TESTS_BUILD_DIR holds nccl-tests' binaries (all_reduce_perf, ...); OUT_DIR receives every run's output."
  echo "  Default collectives: all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv"
  echo "  Default flags: -b 8 -e 1G -f 4 -g 1 -w 5 -n 50; ROUNDS=3 alternating runs per collective (medians);"
  echo "  COLLSIM_FLAGS adds flags for collsim only. Exit codes: 0 all targets met; 2 usage error;"
  echo "  4 a target missed or nothing to compare; 5 no GPU, driver, CUDA or NCCL."
}
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
if [ $# -lt 2 ]; then
  echo "compare-nccl-tests: needs NCCL_TESTS_BUILD_DIR and OUT_DIR (see --help)" >&2
  exit 2
fi
NT="$1"; OUT="$2"; shift 2
COLLS=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do COLLS="$COLLS $1"; shift; done
[ $# -gt 0 ] && shift
FLAGS="${*:--b 8 -e 1G -f 4 -g 1 -w 5 -n 50}"
ROUNDS="${ROUNDS:-3}"
[ -n "$COLLS" ] || COLLS="all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv"
for c in $COLLS; do
  if [ ! -x "$NT/${c}_perf" ]; then
    echo "compare-nccl-tests: no nccl-tests binary $NT/${c}_perf (give the folder nccl-tests' make wrote, e.g. nccl-tests/build)" >&2
    exit 2
  fi
done
mkdir -p "$OUT"
status=0
for c in $COLLS; do
  A=""; B=""
  r=1
  while [ "$r" -le "$ROUNDS" ]; do
    rc=0
    "$DIR/run-executor" "$c" $FLAGS ${COLLSIM_FLAGS:-} -J "$OUT/collsim-$c-$r.json" > "$OUT/collsim-$c-$r.txt" 2>&1 || rc=$?
    if [ "$rc" -eq 5 ]; then
      tail -n 1 "$OUT/collsim-$c-$r.txt" >&2
      exit 5
    fi
    [ "$rc" -eq 0 ] || echo "collsim $c exited $rc"
    "$NT/${c}_perf" $FLAGS > "$OUT/nccl-tests-$c-$r.txt" 2>&1 || echo "nccl-tests $c exited $?"
    A="$A $OUT/nccl-tests-$c-$r.txt"; B="$B $OUT/collsim-$c-$r.txt"
    r=$((r + 1))
  done
  echo "=== $c ($FLAGS)"
  # not through a pipe: sh has no pipefail, and tee's exit code would hide a missed target
  "$DIR/compare-tables" $A -- $B > "$OUT/compare-$c.txt" || status=4
  cat "$OUT/compare-$c.txt"
done
exit $status
