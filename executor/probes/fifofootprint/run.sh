#!/usr/bin/env bash
# Builds fifofootprint.cu with the machine's nvcc and runs it once, writing key=value lines to stdout.
# Usage: executor/probes/fifofootprint/run.sh
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
probe_build fifofootprint
probe_gpu_line name,pcie.link.gen.max,pcie.link.width.max
probe_cpu_line
"$work/fifofootprint"
