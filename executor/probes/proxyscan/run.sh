#!/usr/bin/env bash
# Builds proxyscan.cu with the machine's nvcc and runs it with 512 and 128 writer threads (NCCL_LL_MAX_NTHREADS and
# a reduced LL CTA), writing key=value lines to stdout. Usage: executor/probes/proxyscan/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" -O2 -arch=native -o "$work/proxyscan" "$here/proxyscan.cu"
echo "# nvidia-smi: $(nvidia-smi --query-gpu=name,pcie.link.gen.max,pcie.link.width.max,driver_version --format=csv,noheader 2>/dev/null || true)"
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
for t in 512 128; do "$work/proxyscan" "$t"; done
