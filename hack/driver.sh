#!/usr/bin/env bash
# Runs one of the test-classpath drivers (dev.rekon.bench.*) after the control-plane set-up and a build:
#   hack/driver.sh <main class> [args...]
# Used by hack/bench.sh and hack/chaos.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash hack/control-plane.sh >/dev/null
echo "[$1] building"
./mvnw -B -q test-compile package -DskipTests
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/run-classpath.txt
main="$1"
shift
exec java -cp "target/test-classes:$(cat target/run-classpath.txt)" "$main" "$@"
