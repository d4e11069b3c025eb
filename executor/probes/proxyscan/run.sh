#!/usr/bin/env bash
# Builds proxyscan.cu with the machine's nvcc and runs it with 512 and 128 writer threads (NCCL_LL_MAX_NTHREADS and
# a reduced LL CTA), writing key=value lines to stdout. Usage: executor/probes/proxyscan/run.sh
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
probe_build proxyscan
probe_gpu_line name,pcie.link.gen.max,pcie.link.width.max,driver_version
probe_cpu_line
for t in 512 128; do "$work/proxyscan" "$t"; done
