#!/usr/bin/env bash
# Wall time of whole collsim commands through the launcher (JVM start, class loading and JIT included), the figure a
# user waits for. Runs each command once to warm the build and the start-up archive, then N times (default 5), and
# prints min / median / max seconds per command. The machine's load is printed with it: on a shared 2-core machine
# the figures move with it.
#   benchmarks/cli-wall.sh [N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-5}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cmds=(
  "collsim|"
  "collsim predict -c dgx-h100 allreduce -b 8 -e 8G -f 2|predict -c dgx-h100 allreduce -b 8 -e 8G -f 2"
  "collsim --version|--version"
)
cd "$work"
"$root/collsim" --version >/dev/null
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1), $n runs each"
printf '%-55s %8s %8s %8s\n' command min median max
for entry in "${cmds[@]}"; do
  label="${entry%%|*}"; args="${entry#*|}"
  times=()
  for _ in $(seq "$n"); do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$root/collsim" $args >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=("$(( (t1 - t0) / 1000000 ))")
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  med=${sorted[$(( n / 2 ))]}
  awk -v l="$label" -v a="${sorted[0]}" -v m="$med" -v b="${sorted[$((n-1))]}" \
    'BEGIN { printf "%-55s %8.2f %8.2f %8.2f\n", l, a / 1000, m / 1000, b / 1000 }'
done
