#!/usr/bin/env bash
# Publishes the sample module "kpack" (a small kpack-like module: namespace kpack, a CRD, a ServiceAccount,
# a Role and RoleBinding, a ConfigMap, a Deployment) at 0.4.1, 0.4.3 (drops the ConfigMap, changes the Role)
# and 2.0.0 (more than one major version on): for each, a signed OCM component whose raw-manifest is a local
# blob (a tar of the YAML files), pushed to the registry; then writes their ModuleTemplates and a
# ModuleReleaseMeta (channel regular -> 0.4.1) to apply. Signs with Rekon's own OCM normalisation code and a
# key pair made here with openssl (kept in the output directory for the next run). With module publication on
# for the registry (rekon.modules.publish.repositories, as hack/run.sh sets it), Rekon publishes each pushed
# version itself and the YAML files are not needed. Usage:
#   hack/push-sample-module.sh [registry] [out-dir] [namespace] [baseUrl] [version...]
#     registry   where to push (default 127.0.0.1:5000)
#     out-dir    key pair and YAML files (default target/sample-module)
#     namespace  of the Kyma objects (default kyma-system)
#     baseUrl    the registry address Rekon reads from, written into the descriptors (default: registry)
#     version    the versions to push (default: 0.4.1 0.4.3 2.0.0)
set -euo pipefail
REGISTRY="${1:-127.0.0.1:5000}"
OUT="${2:-target/sample-module}"
NAMESPACE="${3:-kyma-system}"
BASE_URL="${4:-$REGISTRY}"
VERSIONS=("${@:5}")
[ ${#VERSIONS[@]} -gt 0 ] || VERSIONS=(0.4.1 0.4.3 2.0.0)
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
if [ ! -f "$OUT/signing-key.pem" ]; then
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$OUT/signing-key.pem" 2>/dev/null
fi
openssl pkey -in "$OUT/signing-key.pem" -pubout -out "$OUT/trusted.pem"
./mvnw -B -q test-compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$OUT/classpath.txt" >/dev/null
java -cp "target/test-classes:target/classes:$(cat "$OUT/classpath.txt")" dev.rekon.modules.manifest.SampleModule \
  "$REGISTRY" "$BASE_URL" "$OUT/signing-key.pem" "$OUT" "$NAMESPACE" "${VERSIONS[@]}"

cat <<EOT

With module publication on for $REGISTRY (hack/run.sh turns it on), Rekon has published the pushed versions:
  kubectl -n kcp-system get moduletemplates,modulereleasemetas
Without it, write the objects by hand as follows.

Trust the key and require signatures (Rekon's configuration):
  kubectl -n rekon create configmap rekon-module-keys --from-file=trusted.pem=$OUT/trusted.pem
  rekon.modules.require-signature=true
  rekon.modules.public-keys=/etc/rekon/module-keys/trusted.pem   (the ConfigMap mounted there)

Publish the releases (ModuleTemplates of 0.4.1, 0.4.3, 2.0.0 and the ModuleReleaseMeta, regular -> 0.4.1):
  kubectl create namespace $NAMESPACE --dry-run=client -o yaml | kubectl apply -f -
  kubectl apply -f $OUT/moduletemplate-kpack-0.4.1.yaml -f $OUT/moduletemplate-kpack-0.4.3.yaml \\
    -f $OUT/moduletemplate-kpack-2.0.0.yaml -f $OUT/modulereleasemeta-kpack.yaml

Install, then move the channel on (0.4.3 lands; 2.0.0 is refused as MajorStepTooLarge):
  kubectl -n $NAMESPACE patch kyma default --type merge -p '{"spec":{"modules":[{"name":"kpack","channel":"regular"}]}}'
  kubectl -n $NAMESPACE patch modulereleasemeta kpack --type merge -p '{"spec":{"channels":[{"channel":"regular","version":"0.4.3"}]}}'
  kubectl -n $NAMESPACE patch modulereleasemeta kpack --type merge -p '{"spec":{"channels":[{"channel":"regular","version":"2.0.0"}]}}'

Uninstall (the namespace kpack goes with it):
  kubectl -n $NAMESPACE patch kyma default --type merge -p '{"spec":{"modules":[]}}'
EOT
