#!/usr/bin/env bash
# Builds blocking.cu with the machine's nvcc against the system NCCL and runs it once, writing key=value lines to
# stdout. Usage: executor/probes/blocking/run.sh
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
probe_build blocking -O2 -lnccl
probe_gpu_line name,driver_version
probe_cpu_line
"$work/blocking"
