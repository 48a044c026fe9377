#!/usr/bin/env bash
# The chaos command: thousands of rollout events (duplicates, late, concurrent, a share dropped, resyncs in
# between) while the apiserver the functions use is killed and restarted and a registry is stopped and started;
# then malformed input to every endpoint; then three Rekon processes against one apiserver with events spread
# over them and one process SIGKILLed and restarted (dev.rekon.bench.Replicas). Prints lost changes, rollbacks,
# 5xx during/outside outages and fuzz 5xx; exits 1 on failure.
# Optional arguments: images, builds per image, apiserver kills (default 20 60 8).
set -euo pipefail
cd "$(dirname "$0")/.."
bash hack/driver.sh dev.rekon.bench.ChaosMain "$@"
exec java -cp "target/test-classes:$(cat target/run-classpath.txt)" dev.rekon.bench.ReplicasMain
