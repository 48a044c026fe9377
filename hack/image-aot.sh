#!/usr/bin/env bash
# Adds the AOT cache to a pushed JVM image (JDK 25+ in the image; run as root):
#   hack/image-aot.sh [--insecure] IMAGE [RESULT]
# Pulls IMAGE (skopeo), unpacks it (umoci), runs the training of hack/aot-cache.sh with the image's own
# entrypoint, JVM and files at the image's paths (a chroot in a private mount namespace, against a local
# control plane), adds rekon.aot and rekon.aot.jvm to /home/jboss as one more layer each, and pushes the result
# as RESULT (default: IMAGE, the same tag). --insecure: plain HTTP to the registry. A cache recorded on the host
# does not fit an image: the JVM checks the exact JVM build and each jar's size and modification time.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "image-aot: needs root (umoci unpack, unshare --mount, chroot)" >&2; exit 1; }
# The drivers' classes only: a package would replace target/quarkus-app for nothing.
./mvnw -B -q test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/run-classpath.txt
REKON_BUILT=1 exec bash hack/driver.sh dev.rekon.bench.ImageAot "$@"
