#!/usr/bin/env bash
# Builds a self-contained executor bundle for GPU hosts that have no Java: a jlink runtime, the executor jar
# with its dependencies (JavaCPP and the CUDA/NCCL bindings, no native CUDA libraries: the host's libcudart 13
# and libnccl 2.19+ are used), and run scripts. Output: bundle/ (or the directory given as $1), < 64 MiB.
#   executor/bundle.sh [OUT_DIR]
#   OUT_DIR/run-executor all_reduce -b 8 -e 1G -f 2 -g 1        # nccl-tests flags, exit codes in --help
#   OUT_DIR/self-test                                          # GPU tests; exit 0 when all pass
#   OUT_DIR/compare-nccl-tests NCCL_TESTS_BUILD_DIR OUT [COLL..] # collsim vs nccl-tests side by side
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/bundle}"
cd "$ROOT"
mvn -q -B -o -DskipTests package -pl executor -am
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
