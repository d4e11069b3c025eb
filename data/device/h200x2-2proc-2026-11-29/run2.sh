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

# ---- 0. machine -------------------------------------------------------------------------------------------
log start
nvidia-smi -L > "$OUT/00-nvidia-smi-L.txt" 2>&1
( date -u; hostname; nvidia-smi; nvidia-smi topo -m; df -h /dev/shm /tmp; ulimit -a
  ls -la /usr/lib/x86_64-linux-gnu/libnccl* /usr/local/cuda/lib64/libcudart* 2>&1
  echo "bundle: $B"; ls -la "$B"; du -sh "$B"; "$B/run-executor" --version ) > "$OUT/00-machine.txt" 2>&1
NG=$(grep -c '^GPU ' "$OUT/00-nvidia-smi-L.txt")
record 00-machine 0 $(( $(date +%s) - T0 )) "GPUs: $NG"

# ---- a. self-test (one GPU per run: the self-test drives device 0 of what it sees; run it on each GPU) ------
for g in 0 1; do
  t=$(date +%s)
  CUDA_VISIBLE_DEVICES=$g timeout -k 5 "$(tmo 90)" "$B/self-test" > "$OUT/a-self-test-gpu$g.txt" 2>&1
  rc=$?
  record "a-self-test-gpu$g" $rc $(( $(date +%s) - t )) \
    "$(grep -c '^PASS' "$OUT/a-self-test-gpu$g.txt") PASS, $(grep -c '^FAIL' "$OUT/a-self-test-gpu$g.txt") FAIL (single-GPU tests; CUDA_VISIBLE_DEVICES=$g)"
done

# two processes, one per GPU: run2p NAME SECONDS ARGS...  (rank logs NAME.rank0.txt / NAME.rank1.txt; @RANK@ in
# an argument becomes the rank). The GPU is chosen by LOCAL_RANK (device LOCAL_RANK x -g), so no CUDA_VISIBLE_DEVICES.
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

# ---- e. NCCL_DEBUG=INFO, small 2-process run first: a quick smoke test that records the transport NCCL chose --
if [ "$(left)" -gt 40 ]; then
  NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET,GRAPH,ENV \
    run2p e-2proc-info-all_reduce "$(tmo 60)" all_reduce -b 8 -e 1M -f 32 -c 1 -T 30 --rendezvous-timeout 40
  E_OK=$?
  if [ $E_OK -ne 0 ] && [ "$(left)" -gt 60 ]; then
    # one retry without cuMem-based P2P, in case the VM refuses cuMem IPC between processes; when only that
    # works, step b runs with it too (the summary says so)
    if NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET,GRAPH,ENV NCCL_CUMEM_ENABLE=0 \
      run2p e-retry-CUMEM0 "$(tmo 60)" all_reduce -b 8 -e 1M -f 32 -c 1 -T 30 --rendezvous-timeout 40; then
      export NCCL_CUMEM_ENABLE=0
      record note-b-with-CUMEM0 - 0 "step e failed with defaults and passed with NCCL_CUMEM_ENABLE=0: b uses it"
    else
      B_TMO=60   # the 2-process path does not work at all here: keep b's failures short
    fi
  fi
else
  record e-2proc-info-all_reduce skip 0 "budget"
fi

# ---- b. 2 processes, one per GPU, 8 B .. 1 GiB ------------------------------------------------------------
for c in $COLLS; do
  if [ "$(left)" -lt 40 ]; then record "b-2proc-$c" skip 0 "budget"; continue; fi
  run2p "b-2proc-$c" "$(tmo "$B_TMO")" "$c" $SWEEP -c 1 -T 60 --rendezvous-timeout 60 \
    -J "$OUT/b-2proc-$c.rank@RANK@.json"
  # both ranks killed by the timeout: a hang, not a slow run; do not spend 120 s on each of the others
  grep -Eq "^b-2proc-$c +(124|137)/(124|137) " "$SUM" && B_TMO=45
done
unset NCCL_CUMEM_ENABLE

# ---- d. broken rendezvous: rank 1 alone, nothing on MASTER_PORT, --rendezvous-timeout 5 ---------------------
if [ "$(left)" -gt 30 ]; then
  port=$(freeport 29950); t=$(date +%s)
  RANK=1 WORLD_SIZE=2 LOCAL_RANK=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    timeout -k 5 30 "$B/run-executor" all_reduce -b 8 -e 8 --rendezvous-timeout 5 > "$OUT/d-rank1-alone.txt" 2>&1
  rc=$?
  record d-rank1-alone $rc $(( $(date +%s) - t )) "expect 5, one 'collsim: rendezvous: rank 1 could not reach rank 0 at 127.0.0.1:$port' line"
fi
# d2. rank 0 alone (rank 1 never starts), --rendezvous-timeout 5: the rendezvous server gives up after 5 s, but
# rank 0's main thread is then inside ncclCommInitRankConfig waiting for rank 1; expected from reading the code:
# a hang until the outer timeout (rc 124), not exit 5 naming rank [1]. Kept short.
if [ "$(left)" -gt 40 ]; then
  port=$(freeport 29970); t=$(date +%s)
  RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    timeout -k 5 25 "$B/run-executor" all_reduce -b 8 -e 8 --rendezvous-timeout 5 > "$OUT/d2-rank0-alone.txt" 2>&1
  rc=$?
  record d2-rank0-alone $rc $(( $(date +%s) - t )) "documented intent: 5 + 'ranks never connected: [1]'; 124 = hang in NCCL init"
fi

# ---- c. one process, both GPUs (-g 2), same sizes, for comparison ----------------------------------------
for c in $COLLS; do
  if [ "$(left)" -lt 35 ]; then record "c-g2-$c" skip 0 "budget"; continue; fi
  t=$(date +%s)
  timeout -k 5 "$(tmo 100)" "$B/run-executor" "$c" $SWEEP -g 2 -c 1 -T 60 -J "$OUT/c-g2-$c.json" \
    > "$OUT/c-g2-$c.txt" 2>&1
  rc=$?
  record "c-g2-$c" $rc $(( $(date +%s) - t )) ""
done

# ---- checks -----------------------------------------------------------------------------------------------
# result rows: 13 fields, field 1 numeric: size count type redop root | time algbw busbw #wrong | (in-place) x4
rows() { awk 'NF==13 && $1 ~ /^[0-9]+$/' "$@" 2>/dev/null; }
{
  echo "== #wrong (rows with #wrong other than 0 or N/A; rank 0 prints the table) and row counts"
  for f in "$OUT"/b-2proc-*.rank0.txt "$OUT"/c-g2-*.txt "$OUT"/e-2proc-info-*.rank0.txt; do
    [ -f "$f" ] || continue
    n=$(rows "$f" | wc -l)
    bad=$(rows "$f" | awk '($9!="0" && $9!="N/A") || ($13!="0" && $13!="N/A")' | wc -l)
    printf '%-44s rows %3d  wrong-rows %d  %s\n' "$(basename "$f")" "$n" "$bad" \
      "$(grep -h 'Out of bounds' "$f" | head -1)"
  done
  echo
  echo "== out-of-place busbw (GB/s) at >= 64 MiB: 2 processes vs -g 2 (ratio = 2proc / g2)"
  printf '%-15s %11s %9s %9s %7s\n' collective size 2proc g2 ratio
  for c in $COLLS; do
    a="$OUT/b-2proc-$c.rank0.txt"; g="$OUT/c-g2-$c.txt"
    [ -f "$a" ] && [ -f "$g" ] || continue
    awk -v c="$c" 'NR==FNR { if (NF==13 && $1 ~ /^[0-9]+$/ && $1 >= 67108864) g[$1]=$8; next }
      NF==13 && $1 ~ /^[0-9]+$/ && $1 >= 67108864 && ($1 in g) && g[$1] > 0 {
        r = $8 / g[$1]; flag = (r < 0.95 || r > 1.05) ? "  <-- off by more than 5%" : ""
        printf "%-15s %11d %9.2f %9.2f %7.3f%s\n", c, $1, $8, g[$1], r, flag }' <(rows "$g") <(rows "$a")
  done
  echo
  echo "== small sizes (<= 8 KiB): out-of-place time (us), 2 processes vs -g 2"
  for c in $COLLS; do
    a="$OUT/b-2proc-$c.rank0.txt"; g="$OUT/c-g2-$c.txt"
    [ -f "$a" ] && [ -f "$g" ] || continue
    awk -v c="$c" 'NR==FNR { if ($1 > 0 && $1 <= 8192) g[$1]=$6; next }
      $1 > 0 && $1 <= 8192 && ($1 in g) { printf "%-15s %11d %9.2f %9.2f\n", c, $1, $6, g[$1] }' <(rows "$g") <(rows "$a")
  done
  echo
  echo "== rank 1 logs of the 2-process runs (expected: no table, no error lines)"
  for f in "$OUT"/b-2proc-*.rank1.txt "$OUT"/e-*.rank1.txt; do
    [ -f "$f" ] && printf '%-44s %5d lines, %d collsim: lines\n' "$(basename "$f")" "$(wc -l < "$f")" \
      "$(grep -c '^collsim:' "$f")"
  done
  echo
  echo "== JSON files written (only rank 0 writes -J by design)"
  ls -la "$OUT"/*.json 2>/dev/null
  echo
  echo "== transports NCCL chose (e, NCCL_DEBUG=INFO, both ranks; count, run.rank, line)"
  grep -H ' via ' "$OUT"/e-*.rank*.txt 2>/dev/null | sed 's|^.*/e-||; s|\.txt:.*NCCL INFO | |' | sort | uniq -c
  grep -h -E 'NCCL INFO (P2P|Using network|comm 0x|NCCL_CUMEM|cudaDriverVersion|NCCL version)' \
    "$OUT"/e-*.rank*.txt 2>/dev/null | sed 's/^.*NCCL INFO //' | sort | uniq -c | head -20
  echo
  echo "== d / d2: output (expect one 'collsim: ...' line each, no stack trace)"
  for f in "$OUT/d-rank1-alone.txt" "$OUT/d2-rank0-alone.txt"; do
    [ -f "$f" ] || continue
    echo "-- $(basename "$f"): $(wc -l < "$f") lines, stack-trace lines: $(grep -c -E '^\s+at |Exception in thread' "$f")"
    grep -v 'NCCL INFO' "$f" | head -5
  done
} > "$CHK" 2>&1

log done
{ echo "step                            rc   secs  note"; cat "$SUM"; echo "total $(( $(date +%s) - T0 )) s"
  echo; cat "$CHK"; } | tee "$OUT/report.txt"
