#!/bin/bash
# After the executor changes of this session (rendezvous wait before NCCL init, stream-ordered cross-rank copy):
# self-test on each GPU, one process per GPU for two collectives, rank 0 alone; everything tarred into one file.
set -u
export NCCL_NVLS_ENABLE=0
: "${OUT:?}"
B="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bundle"
chmod +x "$B/run-executor" "$B/self-test" "$B/jre/bin/java" "$B/jre/lib/jspawnhelper" 2>/dev/null
for g in 0 1; do
  CUDA_VISIBLE_DEVICES=$g timeout -k 5 120 "$B/self-test" > "$OUT/self-test-gpu$g.txt" 2>&1
  echo "self-test gpu$g rc=$? $(grep -c '^PASS' "$OUT/self-test-gpu$g.txt") PASS $(grep -c '^FAIL' "$OUT/self-test-gpu$g.txt") FAIL"
done
for coll in all_reduce alltoall; do
  port=$((29700 + RANDOM % 200))
  for r in 0 1; do
    RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
      timeout -k 5 120 "$B/run-executor" $coll -b 8 -e 1G -f 4 -c 1 -T 60 --rendezvous-timeout 60 \
      > "$OUT/2proc-$coll.rank$r.txt" 2>&1 &
  done
  wait
  echo "2proc $coll: $(grep -E 'Out of bounds|Avg bus' "$OUT/2proc-$coll.rank0.txt" | tr '\n' ' ')"
done
port=$((29950 + RANDOM % 40))
RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
  timeout -k 5 25 "$B/run-executor" all_reduce -b 8 -e 8 --rendezvous-timeout 5 > "$OUT/rank0-alone.txt" 2>&1
echo "rank0 alone rc=$? $(cat "$OUT/rank0-alone.txt")"
( cd "$OUT" && tar czf /tmp/run4.tgz . && mv /tmp/run4.tgz "$OUT/run4.tgz" )
