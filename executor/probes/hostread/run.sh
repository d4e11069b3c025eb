#!/usr/bin/env bash
# Builds hostread.cu with the machine's nvcc and runs it once per NUMA node (memory and CPU bound there with
# numactl when present), writing key=value lines to stdout. Usage: executor/probes/hostread/run.sh [MiB]
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
probe_build hostread
probe_gpu_line name,pcie.link.gen.max,pcie.link.width.max,driver_version
probe_cpu_line
probe_per_numa "$work/hostread" "${1:-64}"
