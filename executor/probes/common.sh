# Shared by the probes' run.sh, sourced after they set $here to their own folder:
#   here="$(cd "$(dirname "$0")" && pwd)"; . "$here/../common.sh"
# Sets strict mode, a temporary build folder $work removed on exit, and $NVCC (the machine's nvcc, else CUDA's
# default path); defines the build of one probe and the header lines every probe's output starts with.
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"

# probe_build NAME [FLAG...]: builds $here/NAME.cu for this machine's GPU (-arch=native) into $work/NAME; the FLAGs
# (default -O2) follow the source, so a library (-lnccl) links after it.
probe_build() {
  local name="$1"
  shift
  if [ "$#" -eq 0 ]; then
    set -- -O2
  fi
  "$NVCC" -arch=native -o "$work/$name" "$here/$name.cu" "$@"
}

# probe_gpu_line FIELDS: "# nvidia-smi: ..." with nvidia-smi's --query-gpu=FIELDS (empty when it fails).
probe_gpu_line() {
  echo "# nvidia-smi: $(nvidia-smi --query-gpu="$1" --format=csv,noheader 2>/dev/null || true)"
}

# probe_cpu_line: "# cpu: ..." with the first CPU model name of /proc/cpuinfo.
probe_cpu_line() {
  echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
}

# probe_per_numa CMD [ARG...]: runs CMD once per NUMA node, memory and CPU bound there with numactl (the node in
# $HOSTREAD_NUMA), after a "# numa:" line; without numactl once with the default policy.
probe_per_numa() {
  if command -v numactl >/dev/null 2>&1; then
    echo "# numa: $(numactl -H | head -1)"
    local node
    for node in $(numactl -H | sed -n 's/^node \([0-9]*\) cpus:.*/\1/p'); do
      HOSTREAD_NUMA="$node" numactl --cpunodebind="$node" --membind="$node" "$@"
    done
  else
    echo "# numa: numactl not found; one run with the default policy"
    "$@"
  fi
}
