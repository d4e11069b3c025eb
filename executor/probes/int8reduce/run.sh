#!/usr/bin/env bash
# Builds int8reduce.cu with the machine's nvcc and runs it once, writing key=value lines to stdout.
# Usage: executor/probes/int8reduce/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" -O3 -arch=native -o "$work/int8reduce" "$here/int8reduce.cu"
echo "# nvidia-smi: $(nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader 2>/dev/null || true)"
echo "# nvcc: $("$NVCC" --version | tail -1)"
"$work/int8reduce"
