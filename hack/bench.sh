#!/usr/bin/env bash
# The benchmark command: starts a real apiserver (with every CRD) and the packaged functions, started by
# hack/start.sh as in production and sized as in the Knative Service (-XX:MaxRAM=512m), on a free loopback
# port, runs bounded loads, prints markdown tables and writes target/bench/cold.json and results.json.
# Optional arguments (to scale down): how many ImageDeploys the scale figure uses (default 10000), how many
# ClusterBuildpacks (10 versions each, default 1000) and Builders (default 500) the Builder figure uses.
# A subset of the figures (cold, latency, noop, scale, builders, status, resync, kymas, modules, declared, publish,
# knative, promotion;
# noop needs latency), e.g. only the cold part:
#   JAVA_TOOL_OPTIONS=-Drekon.bench.only=cold hack/bench.sh
# or, the same, only=cold hack/bench.sh
# Beside another commit's run: copy its target/bench/results.json away and name it, e.g.
#   JAVA_TOOL_OPTIONS="-Drekon.bench.only=latency -Drekon.bench.baseline=../before.json" hack/bench.sh 200 10 10
# prints the latency figures of both runs side by side after the table.
# With JAVA_HOME on a JDK 25 the AOT cache is recorded first (hack/aot-cache.sh) unless REKON_AOT=off.
set -euo pipefail
cd "$(dirname "$0")/.."
only="${only:-}"
only="${only:-$(sed -n 's/.*-Drekon\.bench\.only=\([^ ]*\).*/\1/p' <<<"${JAVA_TOOL_OPTIONS:-}")}"
only="${only:-cold,latency,noop,scale,builders,status,resync,kymas,modules,declared,publish,knative,promotion}"
# The drivers read the same selection (Bench measures only the warm parts named here).
export REKON_BENCH_ONLY="$only"

# The AOT cache, when the JVM can record one (the training run builds the application too).
aot_cache() {
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  local release
  release="$(dirname "$(dirname "$(readlink -f "$(command -v "$java" || echo "$java")")")")/release" || true
  if [ "${REKON_AOT:-auto}" != off ] && grep -qE '^JAVA_VERSION="(2[5-9]|[3-9][0-9])' "$release" 2>/dev/null; then
    bash hack/aot-cache.sh
  fi
}

# The cold part: fresh processes, first event, RSS, the first 100 events, a burst (ColdBench).
cold() {
  bash hack/driver.sh dev.rekon.bench.ColdBench "${REKON_BENCH_COLD_IMAGEDEPLOYS:-1000}"
}

# The warm part: latency next to raw PATCHes, no-op events, scale, Builder re-resolution (Bench).
warm() {
  bash hack/driver.sh dev.rekon.bench.Bench "${1:-10000}" "${2:-1000}" "${3:-500}"
}

# GET /status answered from the watch caches with as many ImageDeploys (StatusBench).
status() {
  bash hack/driver.sh dev.rekon.bench.StatusBench "${1:-10000}"
}

# A resync of as many converged ImageDeploys (default 10000) in REKON_BENCH_RESYNC_NAMESPACES namespaces
# (default 100), then with REKON_BENCH_RESYNC_BEHIND % a build behind (default 10: 1,000 of 10,000, the events
# lost), beside a raw PATCH loop of those Deployments, and the converged pass after (ResyncBench). With
# REKON_BENCH_FLEET_DECLARED DeclaredStates (default 1000; 0 leaves them out) then watched too: the peak RSS.
resync() {
  REKON_BENCH_FLEET_DECLARED="${REKON_BENCH_FLEET_DECLARED:-1000}" bash hack/driver.sh dev.rekon.bench.ResyncBench \
    "${1:-10000}" "${REKON_BENCH_RESYNC_BEHIND:-10}" "${REKON_BENCH_RESYNC_NAMESPACES:-100}"
}

# A fleet of Kymas (KymaFleetBench): REKON_BENCH_KYMAS Kymas (default 100) of 3 modules of 10 objects installed,
# a converged pass, then REKON_BENCH_KYMA_DELETED managed objects (default 100) deleted by hand and the pass that
# creates them again, beside a raw server-side-apply loop of the same objects.
kymas() {
  bash hack/driver.sh dev.rekon.bench.KymaFleetBench "${REKON_BENCH_KYMAS:-100}" 3 10 \
    "${REKON_BENCH_KYMA_DELETED:-100}"
}

# A module of as many objects (default 300) installed, resynced and upgraded from a Kyma, beside kubectl's
# server-side apply of the same manifest (ModuleBench).
modules() {
  bash hack/driver.sh dev.rekon.bench.ModuleBench "${REKON_BENCH_MODULE_OBJECTS:-300}"
}

# Declared state from git (DeclaredBench): a push to every object applied (1, 50, 200 objects), as many
# DeclaredStates (REKON_BENCH_DECLARED_STATES, default 100; 1000 for the fleet figure) of 10 objects applied by one resync and resynced converged, the peak RSS a repository
# of as many files (default 5000, 50 MB) adds; each beside a raw server-side-apply loop of the same objects.
declared() {
  bash hack/driver.sh dev.rekon.bench.DeclaredBench "${REKON_BENCH_DECLARED_STATES:-100}" \
    "${REKON_BENCH_DECLARED_FILES:-5000}"
}

# Module publication (PublishBench): a publish event until the ModuleTemplate and channel are written, beside the
# same two server-side applies made with the client (median of as many versions, default 50, after 20 unmeasured);
# a converged resync of 100 published versions (no write).
publish() {
  bash hack/driver.sh dev.rekon.bench.PublishBench "${REKON_BENCH_PUBLISH_EVENTS:-50}"
}

# A burst of real Knative events (KnativeBurst): as many converged ImageDeploys (default 2000) on a tenth as many
# Images, Knative's ApiServerSource adapters of the shipped rollout sources (hack/knative-adapters.sh builds them)
# and the test broker routing by the shipped Triggers; a label added to all of them: events answered, not 2xx,
# objects written, the functions' API calls, time to drain, peak RSS of the functions and of the adapters; then a
# new build of every Image, whose status writes come back as events: those echoes must cost no API read.
knative() {
  bash hack/knative-adapters.sh >/dev/null
  bash hack/driver.sh dev.rekon.bench.KnativeBurst "${REKON_BENCH_KNATIVE_IMAGEDEPLOYS:-2000}"
}

# Promotion across three clusters, one Rekon each (PromotionBench): a kpack build from its Image event to prod's
# Deployment patched through dev and staging (soak 0, no approval), the controllers' time left out, beside six raw
# PATCHes and three event hops; as many builds (default 10).
promotion() {
  bash hack/driver.sh dev.rekon.bench.PromotionBench "${REKON_BENCH_PROMOTION_BUILDS:-10}"
}

# One build for every part, so that the AOT cache recorded into it is the one the parts start with.
bash hack/control-plane.sh >/dev/null
./mvnw -B -q test-compile package -DskipTests
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/run-classpath.txt
export REKON_BUILT=1
aot_cache
if [[ ",$only," == *,status,* ]]; then status "$@"; fi
if [[ ",$only," == *,resync,* ]]; then resync "$@"; fi
if [[ ",$only," == *,kymas,* ]]; then kymas; fi
if [[ ",$only," == *,modules,* ]]; then modules; fi
if [[ ",$only," == *,declared,* ]]; then declared; fi
if [[ ",$only," == *,publish,* ]]; then publish; fi
if [[ ",$only," == *,knative,* ]]; then knative; fi
if [[ ",$only," == *,promotion,* ]]; then promotion; fi
if [[ ",$only," == *,cold,* ]]; then cold; fi
if [[ ",$only," =~ ,(latency|noop|scale|builders), ]]; then warm "$@"; fi
