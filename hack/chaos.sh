#!/usr/bin/env bash
# The chaos command: thousands of rollout events (duplicates, late, concurrent) while the apiserver the
# functions use is killed and restarted and a registry is stopped and started; then malformed input to
# every endpoint. Prints lost changes, rollbacks, 5xx during/outside outages and fuzz 5xx; exits 1 on failure.
# Optional arguments: images, builds per image, apiserver kills (default 20 60 8).
set -euo pipefail
exec bash "$(dirname "$0")/driver.sh" dev.rekon.bench.ChaosMain "$@"
