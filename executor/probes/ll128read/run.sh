#!/usr/bin/env bash
# Builds ll128read.cu with the machine's nvcc and runs it once per NUMA node (memory and CPU bound there with
# numactl when present), writing key=value lines to stdout. Usage: executor/probes/ll128read/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" -O2 -arch=native -o "$work/ll128read" "$here/ll128read.cu"
echo "# nvidia-smi: $(nvidia-smi --query-gpu=name,pcie.link.gen.max,pcie.link.width.max,driver_version --format=csv,noheader 2>/dev/null || true)"
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
if command -v numactl >/dev/null 2>&1; then
  echo "# numa: $(numactl -H | head -1)"
  for node in $(numactl -H | sed -n 's/^node \([0-9]*\) cpus:.*/\1/p'); do
    HOSTREAD_NUMA="$node" numactl --cpunodebind="$node" --membind="$node" "$work/ll128read"
  done
else
  echo "# numa: numactl not found; one run with the default policy"
  "$work/ll128read"
fi
