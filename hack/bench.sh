#!/usr/bin/env bash
# The benchmark command: starts a real apiserver (with every CRD) and the packaged functions on a free
# loopback port, runs bounded loads, prints a markdown table and writes target/bench/results.json.
# Optional arguments (to scale down): how many ImageDeploys the scale figure uses (default 10000), how many
# ClusterBuildpacks (10 versions each, default 1000) and Builders (default 500) the Builder figure uses.
# A subset of the figures (latency, noop, scale, builders; noop needs latency), e.g. only the rollout latency:
#   JAVA_TOOL_OPTIONS=-Drekon.bench.only=latency hack/bench.sh
set -euo pipefail
bash "$(dirname "$0")/driver.sh" dev.rekon.bench.StatusBench "${1:-10000}"  # GET /status with as many ImageDeploys
bash "$(dirname "$0")/driver.sh" dev.rekon.bench.ResyncBench "${1:-10000}"  # resync of N converged / 1% drifted ImageDeploys
exec bash "$(dirname "$0")/driver.sh" dev.rekon.bench.Bench "${1:-10000}" "${2:-1000}" "${3:-500}"
