#!/usr/bin/env bash
# The benchmark command: starts a real apiserver (with every CRD) and the packaged functions on a free
# loopback port, runs bounded loads, prints a markdown table and writes target/bench/results.json.
# Optional argument: how many ImageDeploys the scale figure uses (default 10000).
set -euo pipefail
exec bash "$(dirname "$0")/driver.sh" dev.rekon.bench.Bench "${1:-10000}"
