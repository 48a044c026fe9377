#!/usr/bin/env bash
# Builds kube-apiserver and etcd from their Go modules (through the Go module proxy) into a directory:
#   hack/lib/build-k8s-from-modules.sh <kubernetes version, e.g. 1.36.3> <etcd version, e.g. 3.6.16> <out dir>
# k8s.io/kubernetes is not meant to be required as a module: its go.mod points every k8s.io/* staging module at
# v0.0.0 in its own tree, so the throwaway module here replaces each with the published v0.<minor>.<patch>.
set -euo pipefail
K8S="$1"; ETCD="$2"; OUT="$3"
GO="${REKON_GO:-$(command -v /usr/local/go/bin/go || command -v go)}"
export GOTOOLCHAIN="${GOTOOLCHAIN:-auto}" CGO_ENABLED=0 GOFLAGS=-mod=mod
work="$(mktemp -d "${TMPDIR:-/tmp}/rekon-k8s-modules.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT" "$work/apiserver" "$work/etcd"

staging_version="v0.${K8S#1.}"
(
  cd "$work/apiserver"
  "$GO" mod init rekon.local/apiserver >/dev/null 2>&1
  gomod="$("$GO" mod download -json "k8s.io/kubernetes@v$K8S" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
  go_line="$(grep -m1 '^go ' "$gomod")"
  sed -i "s/^go .*/$go_line/" go.mod
  echo "require k8s.io/kubernetes v$K8S" >>go.mod
  echo "replace (" >>go.mod
  grep -E '^\s+k8s\.io/[a-z0-9-]+ => \./staging/' "$gomod" | awk -v v="$staging_version" '{print "\t" $1 " => " $1 " " v}' >>go.mod
  echo ")" >>go.mod
  printf 'package main\n\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver/app"\n\nfunc main() {}\n' >tools.go
  "$GO" mod tidy >/dev/null 2>"$work/tidy.log" || { tail -20 "$work/tidy.log" >&2; exit 1; }
  "$GO" build -trimpath -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=v$K8S -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${K8S#1.}" \
    -o "$OUT/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver
  mv "$OUT/kube-apiserver.tmp" "$OUT/kube-apiserver"
)
(
  cd "$work/etcd"
  "$GO" mod init rekon.local/etcd >/dev/null 2>&1
  "$GO" get "go.etcd.io/etcd/server/v3@v$ETCD" >/dev/null 2>"$work/etcd.log" || { tail -20 "$work/etcd.log" >&2; exit 1; }
  printf 'package main\n\nimport _ "go.etcd.io/etcd/server/v3/etcdmain"\n\nfunc main() {}\n' >tools.go
  "$GO" mod tidy >/dev/null 2>"$work/etcd.log" || { tail -20 "$work/etcd.log" >&2; exit 1; }
  "$GO" build -trimpath -ldflags "-s -w" -o "$OUT/etcd.tmp" go.etcd.io/etcd/server/v3
  mv "$OUT/etcd.tmp" "$OUT/etcd"
)
