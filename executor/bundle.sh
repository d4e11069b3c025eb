#!/usr/bin/env bash
# Builds a self-contained executor bundle for GPU hosts that have no Java: a jlink runtime, the executor jar
# with its dependencies (JavaCPP and the CUDA/NCCL bindings, no native CUDA libraries: the host's libcudart 13
# and libnccl 2.19+ are used), and run scripts. Output: bundle/ (or the directory given as $1), < 64 MiB.
#   executor/bundle.sh [OUT_DIR]
#   OUT_DIR/run-executor all_reduce -b 8 -e 1G -f 2 -g 1        # nccl-tests flags, exit codes in --help
#   OUT_DIR/self-test                                          # GPU tests; exit 0 when all pass
#   OUT_DIR/compare-nccl-tests NCCL_TESTS_BUILD_DIR OUT [COLL..] # collsim vs nccl-tests side by side
# Needs a JDK 17+ (with jlink) and Maven 3.8+. Maven runs offline first; when its local cache (~/.m2) lacks a
# plugin or library it says so in one line and fetches them from Maven Central once. Each failure is one line on
# stderr naming what is missing, exit 3; Maven's own output is kept in OUT_DIR.build.log.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bundle}"
case "$OUT" in -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
OUT="$(mkdir -p "$(dirname "$OUT")" && cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")"
LOG="$OUT.build.log"
need() { # command what-to-install
  command -v "$1" > /dev/null 2>&1 || { echo "bundle.sh: '$1' not found on PATH; install $2" >&2; exit 3; }
}
need mvn "Maven 3.8 or newer"
need jlink "a JDK 17 or newer (jlink comes with the JDK, not with a JRE)"
cd "$ROOT"
if ! mvn -q -B -o -DskipTests package -pl executor -am > "$LOG" 2>&1; then
  if ! grep -q "offline mode" "$LOG"; then
    echo "bundle.sh: the build failed (not a missing download); Maven's output: $LOG" >&2
    exit 3
  fi
  echo "bundle.sh: Maven's local cache lacks some of the build's plugins or libraries; fetching them from Maven Central once" >&2
  if ! mvn -q -B -DskipTests package -pl executor -am > "$LOG" 2>&1; then
    echo "bundle.sh: the build needs Maven Central (https://repo.maven.apache.org) or a filled ~/.m2 copied from a machine that built collsim; Maven's output: $LOG" >&2
    exit 3
  fi
fi
rm -f "$LOG"
rm -rf "$OUT"
mkdir -p "$OUT"
jlink --add-modules java.base,java.logging,java.management,java.sql,jdk.unsupported \
  --strip-debug --no-header-files --no-man-pages --compress=2 --output "$OUT/jre"
cp executor/target/collsim-executor-*-standalone.jar "$OUT/collsim-executor.jar"
cp executor/compare-nccl-tests.sh "$OUT/compare-nccl-tests"
launcher() { # name main-class
  cat > "$OUT/$1" <<SH
#!/bin/sh
# collsim executor bundle: runs $2 on the bundled Java runtime.
DIR="\$(cd "\$(dirname "\$0")" && pwd)"
exec "\$DIR/jre/bin/java" \${COLLSIM_JAVA_OPTS:-} -cp "\$DIR/collsim-executor.jar" $2 "\$@"
SH
  chmod +x "$OUT/$1"
}
launcher run-executor dev.collsim.executor.ExecutorMain
launcher self-test dev.collsim.executor.gpu.GpuSelfTest
launcher compare-tables dev.collsim.executor.CompareMain
chmod +x "$OUT/compare-nccl-tests"
du -sh "$OUT"
