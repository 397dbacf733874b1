#!/usr/bin/env bash
# Compiles the scratch tools against the built jars and runs one of them.
#   benchmarks/decision-digest/run.sh digest [big]    digests of session results (big: adds 5000 nodes / 50000 pods)
#   benchmarks/decision-digest/run.sh cpu 5000 50000 8 [runs]   one allocate cycle, wall and main-thread CPU time
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
classes="$(mktemp -d)"
cp="$root/cli/target/cli-0.1.0-SNAPSHOT.jar:$root/cli/target/lib/*"
javac -nowarn -d "$classes" -cp "$cp" "$root"/benchmarks/decision-digest/*.java
tool="$1"
shift
case "$tool" in
    digest) exec java -Xmx3g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$classes:$cp" dev.muster.cli.DecisionDigest "$@" ;;
    cpu) exec java -cp "$classes:$cp" dev.muster.cli.CpuBench "$@" ;;
    *) echo "usage: run.sh digest [big] | cpu NODES PODS GANG [RUNS]" >&2; exit 2 ;;
esac
