#!/usr/bin/env bash
# The speed figures of the README's "Speed" section, in one command: builds the JMH jar, runs every benchmark that
# benchmarks/speed-benchmarks.txt lists (one JMH selector per line; other benchmarks add their line there), then
# times whole commands through the launcher (benchmarks/cli-wall.sh: the built-in report, predict on one host).
# Prints the conditions with the figures: cores, load average before and after, Java version. On a shared machine
# the figures move with the load; run it when `uptime` shows little else running.
#   benchmarks/run-speed.sh [N]        N = runs per command for the wall-time part (default 5)
# Environment: JMH_ARGS (default "-wi 2 -i 3 -w 1s -r 1s -f 1"), MVN_ARGS (extra Maven flags, e.g. -o),
# SKIP_BUILD=1 to reuse benchmarks/target/benchmarks.jar.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-5}"
jar="$root/benchmarks/target/benchmarks.jar"
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f "$jar" ]; then
  # shellcheck disable=SC2086
  (cd "$root" && mvn -q -B ${MVN_ARGS:-} -Pbench -DskipTests -Dcheckstyle.skip package -pl benchmarks -am)
fi
selectors=()
while IFS= read -r line; do
  line="${line%%#*}"; line="$(echo "$line" | tr -d '[:space:]')"
  [ -n "$line" ] && selectors+=("$line")
done < "$root/benchmarks/speed-benchmarks.txt"
conditions() {
  echo "# $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1), $(date -u '+%Y-%m-%d %H:%M UTC')"
}
conditions
# shellcheck disable=SC2086
java -jar "$jar" ${JMH_ARGS:--wi 2 -i 3 -w 1s -r 1s -f 1} "${selectors[@]}" 2>&1 \
  | awk '/^Benchmark / { table = 1 } table { print }'
conditions
"$root/benchmarks/cli-wall.sh" "$n"
