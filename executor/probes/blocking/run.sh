#!/usr/bin/env bash
# Builds blocking.cu with the machine's nvcc against the system NCCL and runs it once, writing key=value lines to
# stdout. Usage: executor/probes/blocking/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" -O2 -arch=native -o "$work/blocking" "$here/blocking.cu" -lnccl
echo "# nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true)"
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
"$work/blocking"
