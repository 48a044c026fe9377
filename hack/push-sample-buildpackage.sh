#!/usr/bin/env bash
# Builds a small meta-buildpackage (sample/java 1.0.0 with sample/jvm 1.0.0) with umoci and pushes it with
# skopeo, with the buildpackage labels carrying the layers' real diffIDs. Usage:
#   hack/push-sample-buildpackage.sh [target] [version]    (default 127.0.0.1:5000/buildpacks/java:1, 1.0.0)
set -euo pipefail
TARGET="${1:-127.0.0.1:5000/buildpacks/java:1}"
VERSION="${2:-1.0.0}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
umoci init --layout oci
umoci new --image oci:bp

layer() { # id version -> prints the diffID of a new layer holding /cnb/buildpacks/<id>/<version>/buildpack.toml
  local dir="root-${1//\//_}" tar="${1//\//_}.tar"
  mkdir -p "$dir/cnb/buildpacks/${1//\//_}/$2"
  printf 'api = "0.7"\n[buildpack]\nid = "%s"\nversion = "%s"\n' "$1" "$2" >"$dir/cnb/buildpacks/${1//\//_}/$2/buildpack.toml"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$tar" -C "$dir" cnb
  umoci raw add-layer --image oci:bp "$tar"
  echo "sha256:$(sha256sum "$tar" | cut -d' ' -f1)"
}
JVM=$(layer sample/jvm "$VERSION")
JAVA=$(layer sample/java "$VERSION")
LAYERS=$(cat <<JSON
{"sample/java":{"$VERSION":{"api":"0.7","order":[{"group":[{"id":"sample/jvm","version":"$VERSION"}]}],"layerDiffID":"$JAVA","homepage":"https://example.org/sample/java"}},
 "sample/jvm":{"$VERSION":{"api":"0.7","stacks":[{"id":"*"}],"layerDiffID":"$JVM","homepage":"https://example.org/sample/jvm"}}}
JSON
)
umoci config --image oci:bp \
  --config.label "io.buildpacks.buildpackage.metadata={\"id\":\"sample/java\",\"version\":\"$VERSION\",\"homepage\":\"https://example.org/sample/java\"}" \
  --config.label "io.buildpacks.buildpack.layers=$(echo "$LAYERS" | tr -d '\n')"
skopeo copy --quiet --dest-tls-verify=false oci:oci:bp "docker://$TARGET"
echo "pushed $TARGET (sample/java $VERSION)"
