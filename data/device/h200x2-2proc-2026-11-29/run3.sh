#!/bin/bash
# collsim executor on 2 GPUs: one process per rank (torchrun-style launcher variables, TCP rendezvous,
# ncclCommInitRankConfig) against one process driving both GPUs (-g 2), the GPU self-test, and rendezvous
# failures. Run from the repository root with carry [".device"]:  bash .device/run2.sh
# Everything goes under $OUT: one log per step, summary.txt (step, rc, seconds, note), checks.txt.
# README-run2.md (next to this script) says what each step checks and what "pass" looks like.
set -u
export NCCL_NVLS_ENABLE=0   # never NVLS / multicast on the lent machines
: "${OUT:?OUT must name the output directory}"
mkdir -p "$OUT"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
B="${BUNDLE:-$HERE/bundle}"
T0=$(date +%s)
BUDGET=${BUDGET:-450}          # seconds for the whole script; steps are cut short or skipped past it
SUM="$OUT/summary.txt"
CHK="$OUT/checks.txt"
: > "$SUM"; : > "$CHK"
COLLS="all_reduce all_gather reduce_scatter alltoall sendrecv"
SWEEP="-b 8 -e 1G -f 2"
B_TMO=120                      # seconds per 2-process run of step b (both ranks)
GRACE=30                       # seconds a rank may outlive the other one in a 2-process run

log() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$OUT/progress.txt"; }
left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
# tmo WANTED: WANTED seconds, or what is left of the budget (minus a margin) when that is less
tmo() { local l; l=$(( $(left) - 10 )); [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }
# record STEP RC SECONDS NOTE
record() { printf '%-28s %5s %6s  %s\n' "$1" "$2" "$3" "$4" >> "$SUM"; log "$1 rc=$2 (${3}s) $4"; }
# a TCP port on 127.0.0.1 that nothing listens on (bash /dev/tcp connect fails), starting at $1
freeport() {
  local p=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}
# the bundle must be runnable (carry keeps modes, but make sure: the supervisor also spawns java via jspawnhelper)
for f in "$B/run-executor" "$B/self-test" "$B/jre/bin/java" "$B/jre/lib/jspawnhelper"; do
  [ -e "$f" ] && [ ! -x "$f" ] && chmod +x "$f"
done

# run3: after the fix (rank 0 now serves the id before NCCL init): rank 0 alone must exit 5 naming rank [1];
# one full 2-process all_reduce and alltoall sweep to show init still works; everything tarred into one file.
log start
run2p() {
  local name=$1 secs=$2; shift 2
  local port t p0 p1 rc0 rc1
  port=$(freeport $((29600 + RANDOM % 300)))
  t=$(date +%s)
  echo "MASTER_PORT=$port args: $*" > "$OUT/$name.cmd.txt"
  RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    timeout -k 5 "$secs" "$B/run-executor" "${@//@RANK@/0}" > "$OUT/$name.rank0.txt" 2>&1 &
  p0=$!
  RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    timeout -k 5 "$secs" "$B/run-executor" "${@//@RANK@/1}" > "$OUT/$name.rank1.txt" 2>&1 &
  p1=$!
  # once one rank has ended, the other gets GRACE s more (a rank whose peer died waits in NCCL); then it is stopped
  # through its timeout process, which passes the TERM on to the JVMs
  local ended=0 a0 a1
  while :; do
    a0=0; kill -0 $p0 2>/dev/null && a0=1
    a1=0; kill -0 $p1 2>/dev/null && a1=1
    [ $a0 = 0 ] && [ $a1 = 0 ] && break
    [ $ended = 0 ] && { [ $a0 = 0 ] || [ $a1 = 0 ]; } && ended=$(date +%s)
    if [ $ended != 0 ] && [ $(( $(date +%s) - ended )) -ge "$GRACE" ]; then
      echo "stopped after the other rank had ended ${GRACE} s before" >> "$OUT/$name.cmd.txt"
      kill -TERM $p0 $p1 2>/dev/null; ended=$(( ended + 100000 ))
    fi
    sleep 1
  done
  wait $p0; rc0=$?
  wait $p1; rc1=$?
  record "$name" "$rc0/$rc1" $(( $(date +%s) - t )) "rank0/rank1 exit codes, port $port"
  [ "$rc0" = 0 ] && [ "$rc1" = 0 ]
}

t=$(date +%s); port=$(freeport 29970)
run2p b-2proc-all_reduce 120 all_reduce -b 8 -e 1G -f 2 -c 1 -T 60 --rendezvous-timeout 60 -J "$OUT/b-2proc-all_reduce.rank@RANK@.json"
run2p b-2proc-alltoall 120 alltoall -b 8 -e 1G -f 2 -c 1 -T 60 --rendezvous-timeout 60
cat "$SUM"; cat "$OUT/d2-rank0-alone.txt"; grep -E "Avg bus|Out of bounds" "$OUT"/b-*.rank0.txt
tail -8 "$OUT/b-2proc-all_reduce.rank0.txt"
( cd "$OUT" && tar czf /tmp/run3.tgz . && mv /tmp/run3.tgz "$OUT/run3.tgz" )
