#!/usr/bin/env bash
# The README's run command: a real local control plane with every CRD, a real registry, and the
# functions connected to both. Prints a sample event to post; Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${REKON_PORT:-8080}"
TOKEN="${REKON_WEBHOOK_TOKEN:-local-token}"
REGISTRY_PORT="${REKON_REGISTRY_PORT:-5000}"

bash hack/control-plane.sh >/dev/null
echo "[run] building (first time: a few minutes)"
./mvnw -B -q test-compile package -DskipTests
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/run-classpath.txt

rm -f target/local/kubeconfig.ready
pids=()
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "[run] stopped"
}
trap cleanup INT TERM EXIT

java -cp "target/test-classes:$(cat target/run-classpath.txt)" dev.rekon.testing.LocalStack "$PORT" "$TOKEN" "$REGISTRY_PORT" \
  >target/local-stack.log 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do
  [ -f target/local/kubeconfig.ready ] && break
  kill -0 "${pids[0]}" 2>/dev/null || { cat target/local-stack.log; exit 1; }
  sleep 1
done
KUBECONFIG_FILE="$PWD/target/local/kubeconfig"
REGISTRY="$(cat target/local/registry-address)"

# The production start (hack/start.sh), given the cluster and port through the environment as a container is.
KUBECONFIG="$KUBECONFIG_FILE" QUARKUS_HTTP_PORT="$PORT" bash hack/start.sh -Dquarkus.http.host=127.0.0.1 \
  -Drekon.webhooks.distribution.token="$TOKEN" >target/rekon.log 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$PORT/q/health/ready" >/dev/null 2>&1 && break
  sleep 1
done

cat <<MSG

Rekon is running on http://127.0.0.1:$PORT (logs: target/rekon.log, target/local-stack.log)
  apiserver kubeconfig: $KUBECONFIG_FILE
  registry:             $REGISTRY (notifications -> /webhooks/distribution, Bearer $TOKEN)
  status page:          http://127.0.0.1:$PORT/ (JSON: http://127.0.0.1:$PORT/status)

Try the image-rollout walkthrough (README, "Image rollouts"):

  export KUBECONFIG=$KUBECONFIG_FILE
  kubectl apply -f knative/examples/rollouts/image.yaml -f knative/examples/rollouts/imagedeploy.yaml

  curl -sS http://127.0.0.1:$PORT/ \\
    -H 'ce-specversion: 1.0' -H 'ce-id: demo-1' -H 'ce-source: local' \\
    -H 'ce-type: dev.knative.apiserver.resource.update' \\
    -H 'ce-kind: Image' -H 'ce-apiversion: kpack.io/v1alpha2' -H 'ce-namespace: demo' -H 'ce-name: hello' \\
    -H 'Content-Type: application/json' --data @knative/examples/rollouts/image-built-event.json

  kubectl -n demo get deployment hello -o jsonpath='{.spec.template.spec.containers[0].image}{"\n"}'

Ctrl-C stops everything.
MSG
wait "${pids[@]}"
