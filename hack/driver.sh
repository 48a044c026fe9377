#!/usr/bin/env bash
# Runs one of the test-classpath drivers (dev.rekon.bench.*) after the control-plane set-up and a build:
#   hack/driver.sh <main class> [args...]
# Used by hack/bench.sh and hack/chaos.sh. With REKON_BUILT=1 it uses the build that is there: a new package
# would replace target/quarkus-app, and with it the AOT cache recorded there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash hack/control-plane.sh >/dev/null
if [ "${REKON_BUILT:-}" != 1 ]; then
  echo "[$1] building"
  ./mvnw -B -q test-compile package -DskipTests
  ./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/run-classpath.txt
fi
main="$1"
shift
# target/classes too: drivers publish modules with the test fixtures, which digest as the application does.
exec java -cp "target/test-classes:target/classes:$(cat target/run-classpath.txt)" "$main" "$@"
