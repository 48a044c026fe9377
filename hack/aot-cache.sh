#!/usr/bin/env bash
# Records the AOT cache (JDK 25+, JEP 483/514/515) into target/quarkus-app/rekon.aot: a training run in which
# the packaged application, started by hack/start.sh, handles real events against a local control plane
# (rollouts that create and patch a Deployment, and every sample event of the README and docs), then stops.
# hack/start.sh uses the cache from then on when it runs on the very JVM build that recorded it.
#   JAVA_HOME=<a JDK 25> hack/aot-cache.sh
# Build and run need the same JDK; with JDK 17 there is nothing to record and it says so. For the container
# image, hack/image-aot.sh runs this training inside the pushed image instead (a host cache does not fit it).
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash hack/driver.sh dev.rekon.bench.AotTraining
