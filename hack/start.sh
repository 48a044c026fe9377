#!/usr/bin/env bash
# The production start of Rekon: what the container image runs, and what hack/run.sh and the bench use.
#   hack/start.sh [JVM options or -Dproperty=value ...]
# It picks the JVM (JAVA_HOME, else java on PATH), flags for a 256-512 MiB container (serial GC, heap as a
# share of the container's memory), and the AOT cache when one was recorded for this very JVM build
# (hack/aot-cache.sh; JDK 25+), else plain JVM mode. Settings from the environment:
#   REKON_APP    the quarkus-app directory (default: the working directory when it holds quarkus-run.jar,
#                as in the image, else target/quarkus-app of the repository)
#   JAVA_OPTS    more JVM options, after the defaults (so they win)
#   REKON_AOT    auto (default): use the cache if it fits; off: never; record: write it at exit (training)
#   MALLOC_ARENA_MAX  glibc's malloc arenas (default here: 2)
# and what the JVM and Quarkus read themselves: JAVA_TOOL_OPTIONS, QUARKUS_HTTP_PORT, KUBECONFIG.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
app="${REKON_APP:-}"
if [ -z "$app" ]; then
  if [ -f quarkus-run.jar ]; then app="$PWD"; else app="$here/../target/quarkus-app"; fi
fi
[ -f "$app/quarkus-run.jar" ] || { echo "start: no $app/quarkus-run.jar (build with ./mvnw package)" >&2; exit 1; }

java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# The JVM's build, from its release file (no extra JVM start): an AOT cache only fits the build that wrote it.
release="$(dirname "$(dirname "$(readlink -f "$(command -v "$java" || echo "$java")")")")/release" || true
runtime="$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$release" 2>/dev/null || true)"
feature="${runtime%%[.+]*}"

# glibc gives each thread that allocates at once an arena of its own, up to 8 per core, and keeps what each
# arena once held, all of it counted in the container's memory beside the heap (the HTTP, watch and worker threads
# of a fleet pass allocate at once). Two are enough for 1-2 cores: the JVM allocates most of its memory itself.
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"

flags=(
  # One GC thread, no concurrent GC threads, the smallest footprint: right for 1-2 cores and small heaps.
  -XX:+UseSerialGC
  # Heap a share of the container's memory (or -XX:MaxRAM), leaving room for metaspace, code and threads.
  -XX:MaxRAMPercentage=40 -XX:InitialRAMPercentage=5 -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30
  -XX:ReservedCodeCacheSize=64m -Xss512k
  # C1 only: a process scaled from zero rarely lives long enough for C2 to pay back its compile time; measured
  # (docs/benchmarks.md) it halves the CPU to the first event and is faster over a 4,000-event burst too.
  # A long-lived instance can take C2 back with JAVA_OPTS=-XX:TieredStopAtLevel=4.
  -XX:TieredStopAtLevel=1
  -XX:+ExitOnOutOfMemoryError
  -Djava.util.logging.manager=org.jboss.logmanager.LogManager
)
cache="$app/rekon.aot"
case "${REKON_AOT:-auto}:${feature:-0}" in
  record:2[5-9]|record:[3-9][0-9])
    rm -f "$cache" "$cache.jvm"
    echo "$runtime" >"$cache.jvm"
    flags+=(-XX:AOTCacheOutput="$cache")
    ;;
  auto:*)
    if [ -f "$cache" ] && [ "$(cat "$cache.jvm" 2>/dev/null)" = "$runtime" ]; then
      flags+=(-XX:AOTCache="$cache")
    fi
    ;;
  record:*) echo "start: an AOT cache needs JDK 25 or later, this is ${runtime:-unknown}" >&2; exit 1 ;;
esac

# shellcheck disable=SC2086 # JAVA_OPTS is a list of options, split as a shell would.
exec "$java" "${flags[@]}" ${JAVA_OPTS:-} "$@" -jar "$app/quarkus-run.jar"
