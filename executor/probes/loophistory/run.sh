#!/usr/bin/env bash
# Builds loophistory.cu with the machine's nvcc and runs it once, with nvidia-smi logging the SM clock every 20 ms
# beside it. Usage: executor/probes/loophistory/run.sh OUTDIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: run.sh OUTDIR}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" -O2 -arch=native -std=c++17 -o "$work/loophistory" "$here/loophistory.cu"
{
  echo "# nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null || true)"
  echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
} > "$out/loophistory.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,pstate --format=csv -lms 20 \
  > "$out/loophistory-clocks.csv" 2>/dev/null &
smi=$!
"$work/loophistory" >> "$out/loophistory.txt"
kill "$smi" 2>/dev/null || true
