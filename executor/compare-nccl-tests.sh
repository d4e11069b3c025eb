#!/bin/sh
# Runs nccl-tests binaries the user already built and the collsim executor with the same flags, one collective
# after the other, and prints both tables side by side with their differences (CompareMain).
#   compare-nccl-tests NCCL_TESTS_BUILD_DIR OUT_DIR [collective ...] [-- nccl-tests flags]
# Default collectives: all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv
# Default flags: -b 8 -e 1G -f 4 -g 1 -w 5 -n 50
set -eu
DIR="$(cd "$(dirname "$0")" && pwd)"
NT="$1"; OUT="$2"; shift 2
COLLS=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do COLLS="$COLLS $1"; shift; done
[ $# -gt 0 ] && shift
FLAGS="${*:--b 8 -e 1G -f 4 -g 1 -w 5 -n 50}"
[ -n "$COLLS" ] || COLLS="all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv"
mkdir -p "$OUT"
status=0
for c in $COLLS; do
  "$NT/${c}_perf" $FLAGS > "$OUT/nccl-tests-$c.txt" 2>&1 || echo "nccl-tests $c exited $?"
  "$DIR/run-executor" "$c" $FLAGS -J "$OUT/collsim-$c.json" > "$OUT/collsim-$c.txt" 2>&1 || echo "collsim $c exited $?"
  echo "=== $c ($FLAGS)"
  "$DIR/compare-tables" "$OUT/nccl-tests-$c.txt" "$OUT/collsim-$c.txt" | tee "$OUT/compare-$c.txt" || status=4
done
exit $status
