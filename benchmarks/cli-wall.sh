#!/usr/bin/env bash
# Wall time of whole collsim commands through the launcher (JVM start, class loading and JIT included), the figure a
# user waits for. Runs each command once to warm the build and the start-up archive, then N times (default 5), and
# prints min / median / max wall seconds per command and the median CPU time (user + sys of the JVM, all its threads).
# The machine's load is printed with it: on a shared 2-core machine the wall figures move with it; CPU time moves
# much less, so compare that when the machine is busy.
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
printf '%-55s %8s %8s %8s %8s\n' command min median max cpu-med
TIMEFORMAT='%R %U %S'
for entry in "${cmds[@]}"; do
  label="${entry%%|*}"; args="${entry#*|}"
  times=()
  cpus=()
  for _ in $(seq "$n"); do
    # shellcheck disable=SC2086
    t=$( { time "$root/collsim" $args >/dev/null 2>&1; } 2>&1 )
    read -r real user sys <<<"$t"
    times+=("$real")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  csorted=($(printf '%s\n' "${cpus[@]}" | sort -n))
  awk -v l="$label" -v a="${sorted[0]}" -v m="${sorted[$(( n / 2 ))]}" -v b="${sorted[$((n-1))]}" \
    -v c="${csorted[$(( n / 2 ))]}" 'BEGIN { printf "%-55s %8.2f %8.2f %8.2f %8.2f\n", l, a, m, b, c }'
done
