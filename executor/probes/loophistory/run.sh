#!/usr/bin/env bash
# Builds loophistory.cu with the machine's nvcc and runs it once, with nvidia-smi logging the SM clock every 20 ms
# beside it. Usage: executor/probes/loophistory/run.sh OUTDIR
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
out="${1:?usage: run.sh OUTDIR}"
mkdir -p "$out"
probe_build loophistory -O2 -std=c++17
{
  probe_gpu_line name,driver_version,clocks.max.sm
  probe_cpu_line
} > "$out/loophistory.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,pstate --format=csv -lms 20 \
  > "$out/loophistory-clocks.csv" 2>/dev/null &
smi=$!
"$work/loophistory" >> "$out/loophistory.txt"
kill "$smi" 2>/dev/null || true
