#!/usr/bin/env bash
# Lays out a real local control plane for tests and `run`:
#   kube-apiserver and etcd of a current Kubernetes release (built once from their Go modules through the Go
#   module proxy, about 8 minutes on 2 cores), in $REKON_CACHE/k8s/<version>-linux-amd64/, where fabric8's
#   kube-api-test finds them offline;
#   or, with REKON_K8S_VERSION=1.20.2 (the compatibility run), kube-apiserver v1.20.2 built from Debian's
#   kubernetes source package with Debian's etcd 3.4;
#   plus the registry and image tools (docker-registry, skopeo, umoci) and git, whose http-backend serves the
#   declared-state tests.
# A second run finds everything in place and returns at once.
set -euo pipefail

CURRENT_K8S=1.37.2
CURRENT_ETCD=3.6.16
K8S_VERSION="${REKON_K8S_VERSION:-$CURRENT_K8S}"
DEB_VERSION="1.20.5+really1.20.2-1.1+deb12u1"
CACHE="${REKON_CACHE:-$HOME/.cache/rekon}"
BIN_DIR="$CACHE/k8s/$K8S_VERSION-linux-amd64"
HERE="$(cd "$(dirname "$0")" && pwd)"
APT_PACKAGES=(etcd-server golang-go dpkg-dev rsync golang-github-modern-go-reflect2-dev
  docker-registry skopeo umoci apache2-utils chromium git)

log() { echo "[control-plane] $*" >&2; }

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null && sudo "$@" || { log "run as root or install sudo: $*"; exit 1; }
  else
    "$@"
  fi
}

all_present() {
  [ -x "$BIN_DIR/kube-apiserver" ] && [ -x "$BIN_DIR/etcd" ] && [ -x "$BIN_DIR/kubectl" ] \
    && command -v docker-registry >/dev/null && command -v skopeo >/dev/null \
    && command -v umoci >/dev/null && command -v htpasswd >/dev/null && command -v git >/dev/null
}

ensure_deb_src() {
  # deb-src entries mirror the machine's own Debian sources, so no host is named here.
  local src=/etc/apt/sources.list.d/rekon-deb-src.sources
  [ -f "$src" ] && return 0
  local base=/etc/apt/sources.list.d/debian.sources
  if [ -f "$base" ]; then
    sed -e 's/^Types:.*/Types: deb-src/' "$base" | need_root tee "$src" >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' \
      | need_root tee /etc/apt/sources.list.d/rekon-deb-src.list >/dev/null
  fi
}

install_packages() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ "$K8S_VERSION" = 1.20.2 ] && ensure_deb_src
  if [ ${#missing[@]} -gt 0 ] || { [ "$K8S_VERSION" = 1.20.2 ] \
      && ! apt-cache showsrc kubernetes 2>/dev/null | grep -q "^Version: $DEB_VERSION"; }; then
    log "apt-get update"
    need_root apt-get update -qq
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

build_current() {
  [ -x "$BIN_DIR/kube-apiserver" ] && [ -x "$BIN_DIR/etcd" ] && return 0
  log "building kube-apiserver $K8S_VERSION and etcd $CURRENT_ETCD from their Go modules (about 8 minutes on 2 cores)"
  local started=$SECONDS
  bash "$HERE/lib/build-k8s-from-modules.sh" "$K8S_VERSION" "$CURRENT_ETCD" "$BIN_DIR"
  log "built in $(( SECONDS - started )) s"
}

build_apiserver() {
  [ -x "$BIN_DIR/kube-apiserver" ] && return 0
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/rekon-k8s-build.XXXXXX")"
  log "building kube-apiserver $K8S_VERSION in $work (about 6 minutes on 2 cores)"
  (
    cd "$work"
    apt-get source --download-only "kubernetes=$DEB_VERSION" >/dev/null
    dpkg-source -x --no-check kubernetes_*.dsc src >/dev/null
    cd src
    # Go >= 1.18 breaks the vendored reflect2 (the apiserver segfaults on its first custom-resource write).
    local r=/usr/share/gocode/src/github.com/modern-go/reflect2
    rm -f vendor/github.com/modern-go/reflect2/*.go vendor/github.com/modern-go/reflect2/*.s
    cp "$r"/*.go vendor/github.com/modern-go/reflect2/
    cp "$r"/*.s vendor/github.com/modern-go/reflect2/ 2>/dev/null || true
    rm -f vendor/github.com/modern-go/reflect2/*_test.go
    CGO_ENABLED=0 make WHAT=cmd/kube-apiserver >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; exit 1; }
    mkdir -p "$BIN_DIR"
    install -m 0755 _output/bin/kube-apiserver "$BIN_DIR/kube-apiserver.tmp"
    mv "$BIN_DIR/kube-apiserver.tmp" "$BIN_DIR/kube-apiserver"
  )
  rm -rf "$work"
}

link_tools() {
  mkdir -p "$BIN_DIR"
  if [ "$K8S_VERSION" = 1.20.2 ]; then
    ln -sf "$(command -v etcd || echo /usr/bin/etcd)" "$BIN_DIR/etcd"
  fi
  if command -v kubectl >/dev/null; then
    ln -sf "$(command -v kubectl)" "$BIN_DIR/kubectl"
  else
    # kube-api-test only needs kubectl to exist; tests talk to the apiserver through fabric8.
    printf '#!/bin/sh\necho "kubectl is not installed" >&2\nexit 1\n' >"$BIN_DIR/kubectl"
    chmod +x "$BIN_DIR/kubectl"
  fi
}

if all_present; then
  echo "$CACHE"
  exit 0
fi
install_packages
if [ "$K8S_VERSION" = 1.20.2 ]; then
  build_apiserver
elif [ "$K8S_VERSION" = "$CURRENT_K8S" ]; then
  build_current
else
  log "REKON_K8S_VERSION=$K8S_VERSION: only $CURRENT_K8S (current) and 1.20.2 (compatibility) are set up here"
  exit 1
fi
link_tools
log "ready in $BIN_DIR"
echo "$CACHE"
