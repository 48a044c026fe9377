#!/usr/bin/env bash
# The README's test command: sets up the real control plane and registry tools (apt, and the
# kube-apiserver build on first use), runs every test (end-to-end included), then checks that all of
# Quarkus's native build steps pass (sources only: no GraalVM needed). The Knative adapters the end-to-end
# tests run (hack/knative-adapters.sh) are built on first use too, after the control plane (they need its Go).
set -euo pipefail
cd "$(dirname "$0")/.."
bash hack/control-plane.sh >/dev/null
bash hack/knative-adapters.sh >/dev/null
./mvnw -B test
./mvnw -B -q package -DskipTests -Dquarkus.native.enabled=true -Dquarkus.native.sources-only=true
echo "native sources-only build: ok (target/native-sources)"
