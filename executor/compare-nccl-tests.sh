#!/bin/sh
# Runs nccl-tests binaries the user already built and the collsim executor with the same flags, alternating
# ROUNDS times (default 3) per collective, and prints both tables side by side (medians over the rounds) with
# their differences and the accuracy targets (CompareMain). Nothing is built here.
#   compare-nccl-tests NCCL_TESTS_BUILD_DIR OUT_DIR [collective ...] [-- nccl-tests flags]
# Default collectives: all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv
# Default flags: -b 8 -e 1G -f 4 -g 1 -w 5 -n 50. COLLSIM_FLAGS adds flags for collsim only (e.g. --comm-init all).
set -eu
DIR="$(cd "$(dirname "$0")" && pwd)"
NT="$1"; OUT="$2"; shift 2
COLLS=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do COLLS="$COLLS $1"; shift; done
[ $# -gt 0 ] && shift
FLAGS="${*:--b 8 -e 1G -f 4 -g 1 -w 5 -n 50}"
ROUNDS="${ROUNDS:-3}"
[ -n "$COLLS" ] || COLLS="all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv"
mkdir -p "$OUT"
status=0
for c in $COLLS; do
  A=""; B=""
  r=1
  while [ "$r" -le "$ROUNDS" ]; do
    "$NT/${c}_perf" $FLAGS > "$OUT/nccl-tests-$c-$r.txt" 2>&1 || echo "nccl-tests $c exited $?"
    "$DIR/run-executor" "$c" $FLAGS ${COLLSIM_FLAGS:-} -J "$OUT/collsim-$c-$r.json" > "$OUT/collsim-$c-$r.txt" 2>&1 || echo "collsim $c exited $?"
    A="$A $OUT/nccl-tests-$c-$r.txt"; B="$B $OUT/collsim-$c-$r.txt"
    r=$((r + 1))
  done
  echo "=== $c ($FLAGS)"
  "$DIR/compare-tables" $A -- $B | tee "$OUT/compare-$c.txt" || status=4
done
exit $status
