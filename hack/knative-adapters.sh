#!/usr/bin/env bash
# Builds, pinned, what the end-to-end tests run of Knative Eventing, from its Go module through the Go module
# proxy, and caches it as hack/control-plane.sh caches the apiserver:
#   apiserver_receive_adapter  the ApiServerSource adapter (knative.dev/eventing cmd/apiserver_receive_adapter)
#   mtping                     the PingSource adapter (cmd/mtping)
#   knative-broker             a stand-in Broker routing by knative/eventing/triggers.yaml with Knative's own
#                              filter code (hack/lib/knative-broker), built against the same module
#   cloudevents                the CloudEvents conformance tool (github.com/cloudevents/conformance cmd/cloudevents
#                              v0.4.1, a module of its own), with its bundled examples in conformance-yaml/
# into $REKON_CACHE/knative/<version>/ (default ~/.cache/rekon). A second run finds them and returns at once;
# it prints the directory. The module is resolved in a throwaway Go module of its own (go get -tool), so
# nothing of it enters this project.
set -euo pipefail

KNATIVE_VERSION="${REKON_KNATIVE_VERSION:-v0.50.0}"
CONFORMANCE_VERSION=v0.4.1
CACHE="${REKON_CACHE:-$HOME/.cache/rekon}"
OUT="$CACHE/knative/$KNATIVE_VERSION"
HERE="$(cd "$(dirname "$0")" && pwd)"
BINARIES=(apiserver_receive_adapter mtping knative-broker cloudevents)

log() { echo "[knative-adapters] $*" >&2; }

all_present() {
  local b
  for b in "${BINARIES[@]}"; do [ -x "$OUT/$b" ] || return 1; done
  # The broker is rebuilt when its source changes.
  cmp -s "$HERE/lib/knative-broker/main.go" "$OUT/knative-broker.go"
}

if all_present; then
  echo "$OUT"
  exit 0
fi
command -v go >/dev/null || { log "needs Go (hack/control-plane.sh installs golang-go)"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/rekon-knative-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
started=$SECONDS
log "building knative.dev/eventing $KNATIVE_VERSION adapters and the test broker in $work"
(
  cd "$work"
  export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0
  go mod init rekon.local/knative-adapters >/dev/null 2>&1
  go get -tool "knative.dev/eventing/cmd/apiserver_receive_adapter@$KNATIVE_VERSION" \
    "knative.dev/eventing/cmd/mtping@$KNATIVE_VERSION" >"$work/get.log" 2>&1 || { tail -20 "$work/get.log" >&2; exit 1; }
  mkdir broker
  cp "$HERE/lib/knative-broker/main.go" broker/
  go mod tidy >>"$work/get.log" 2>&1 || { tail -20 "$work/get.log" >&2; exit 1; }
  # tidy may only add what the broker imports; the adapters' versions stay those of eventing's go.mod.
  go list -m knative.dev/eventing | grep -q " $KNATIVE_VERSION\$" || { log "knative.dev/eventing moved off $KNATIVE_VERSION"; exit 1; }
  mkdir -p bin
  go build -trimpath -ldflags=-s -o bin/ knative.dev/eventing/cmd/apiserver_receive_adapter \
    knative.dev/eventing/cmd/mtping ./broker
  mv bin/broker bin/knative-broker
)
# The conformance tool in a module of its own, so that it moves none of the adapters' dependency versions.
(
  mkdir "$work/conformance" && cd "$work/conformance"
  export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0
  go mod init rekon.local/conformance >/dev/null 2>&1
  go get -tool "github.com/cloudevents/conformance/cmd/cloudevents@$CONFORMANCE_VERSION" >"$work/conformance.log" 2>&1 \
    || { tail -20 "$work/conformance.log" >&2; exit 1; }
  go build -trimpath -ldflags=-s -o "$work/bin/cloudevents" github.com/cloudevents/conformance/cmd/cloudevents
  rm -rf "$work/conformance-yaml"
  cp -r "$(go list -m -f '{{.Dir}}' github.com/cloudevents/conformance)/yaml" "$work/conformance-yaml"
  chmod -R u+w "$work/conformance-yaml"
)
mkdir -p "$OUT"
for b in "${BINARIES[@]}"; do
  install -m 0755 "$work/bin/$b" "$OUT/$b.tmp"
  mv "$OUT/$b.tmp" "$OUT/$b"
done
cp "$work/go.mod" "$OUT/go.mod"
rm -rf "$OUT/conformance-yaml"
cp -r "$work/conformance-yaml" "$OUT/conformance-yaml"
cp "$HERE/lib/knative-broker/main.go" "$OUT/knative-broker.go"
log "built in $(( SECONDS - started )) s into $OUT"
echo "$OUT"
