#!/usr/bin/env bash
# Builds fifofootprint.cu with the machine's nvcc and runs it once, writing key=value lines to stdout.
# Usage: executor/probes/fifofootprint/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" -O2 -arch=native -o "$work/fifofootprint" "$here/fifofootprint.cu"
echo "# nvidia-smi: $(nvidia-smi --query-gpu=name,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader 2>/dev/null || true)"
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
"$work/fifofootprint"
