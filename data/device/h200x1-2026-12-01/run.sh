#!/bin/bash
# After the one-home renovation (shared SizeSweep/CollGeometry/BusBandwidth, NCCL variable check, authenticated
# rendezvous): self-test, three collectives on one H200 compared with the 2026-11-29 runs, the --env check, and the
# launcher paths that one GPU allows (no secret -> exit 2; rank 0 alone -> exit 5; two ranks on one GPU pass the
# rendezvous, then NCCL refuses the duplicate GPU). Everything is tarred into one file.
set -u
export NCCL_NVLS_ENABLE=0
: "${OUT:?}"
FINAL="$OUT"; OUT="$(mktemp -d)"   # only 8 files come back per call: everything goes into one tar
B="${B:-$(pwd)/bundle}"
chmod +x "$B/run-executor" "$B/self-test" "$B/jre/bin/java" "$B/jre/lib/jspawnhelper" 2>/dev/null
nvidia-smi -L > "$OUT/nvidia-smi-L.txt" 2>&1
timeout -k 5 150 "$B/self-test" > "$OUT/self-test.txt" 2>&1
echo "self-test rc=$? $(grep -c '^PASS' "$OUT/self-test.txt") PASS $(grep -c '^FAIL' "$OUT/self-test.txt") FAIL"
for coll in all_reduce all_gather alltoall; do
  timeout -k 5 150 "$B/run-executor" $coll -b 8 -e 1G -f 4 -g 1 -c 1 -J "$OUT/collsim-$coll.json" \
    > "$OUT/collsim-$coll.txt" 2>&1
  echo "$coll rc=$? $(grep -E 'Out of bounds|Avg bus' "$OUT/collsim-$coll.txt" | tr '\n' ' ')"
done
timeout -k 5 60 "$B/run-executor" all_reduce -b 1M -e 1M -g 1 --env NCCL_ALGO=Ring --env NCCL_IB_HCA=mlx5 \
  > "$OUT/env-ring.txt" 2>&1; echo "env NCCL_ALGO=Ring rc=$?"
timeout -k 5 60 "$B/run-executor" all_reduce -b 1M -e 1M -g 1 --env NCCL_NOT_A_VARIABLE=1 \
  > "$OUT/env-unknown.txt" 2>&1; echo "env unknown rc=$? $(head -c 300 "$OUT/env-unknown.txt")"
port=$((29700 + RANDOM % 200))
RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
  timeout -k 5 25 "$B/run-executor" all_reduce -b 8 -e 8 --rendezvous-timeout 5 > "$OUT/no-secret.txt" 2>&1
echo "2 ranks, no secret rc=$? $(head -c 300 "$OUT/no-secret.txt")"
export COLLSIM_RENDEZVOUS_SECRET=device-test-$RANDOM$RANDOM
RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
  timeout -k 5 25 "$B/run-executor" all_reduce -b 8 -e 8 --rendezvous-timeout 5 > "$OUT/rank0-alone.txt" 2>&1
echo "rank0 alone rc=$? $(head -c 300 "$OUT/rank0-alone.txt")"
port=$((29950 + RANDOM % 40))
for r in 0 1; do
  RANK=$r WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    timeout -k 5 60 "$B/run-executor" all_reduce -b 8 -e 8 -T 30 --rendezvous-timeout 20 \
    > "$OUT/same-gpu.rank$r.txt" 2>&1 &
done
wait
echo "two ranks on one GPU: $(tail -c 400 "$OUT/same-gpu.rank0.txt" | tr '\n' ' ')"
( cd "$OUT" && tar czf "$FINAL/run.tgz" . )
