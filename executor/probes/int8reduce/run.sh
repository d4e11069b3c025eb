#!/usr/bin/env bash
# Builds int8reduce.cu with the machine's nvcc and runs it once, writing key=value lines to stdout.
# Usage: executor/probes/int8reduce/run.sh
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
probe_build int8reduce -O3
probe_gpu_line name,clocks.max.sm,driver_version
echo "# nvcc: $("$NVCC" --version | tail -1)"
"$work/int8reduce"
