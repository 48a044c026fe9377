#!/usr/bin/env bash
# The README's run command: a real local control plane with every CRD, a real registry, a git server with
# an empty repository "demo", and the functions connected to them. Prints sample events to post; Ctrl-C stops
# everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${REKON_PORT:-8080}"
TOKEN="${REKON_WEBHOOK_TOKEN:-local-token}"
REGISTRY_PORT="${REKON_REGISTRY_PORT:-5000}"
GIT_SECRET="${REKON_GIT_SECRET:-local-git-secret}"

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
GIT_URL="$(sed -n 1p target/local/git-address)"
GIT_AUTH_URL="$(sed -n 2p target/local/git-address)"
GIT_USER="${GIT_AUTH_URL#http://}"; GIT_USER="${GIT_USER%%@*}"

# The production start (hack/start.sh), given the cluster and port through the environment as a container is.
KUBECONFIG="$KUBECONFIG_FILE" QUARKUS_HTTP_PORT="$PORT" bash hack/start.sh -Dquarkus.http.host=127.0.0.1 \
  -Drekon.webhooks.distribution.token="$TOKEN" -Drekon.webhooks.git.hmac-secret="$GIT_SECRET" \
  -Drekon.modules.publish.repositories="$REGISTRY/component-descriptors" \
  >target/rekon.log 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$PORT/q/health/ready" >/dev/null 2>&1 && break
  sleep 1
done

cat <<MSG

Rekon is running on http://127.0.0.1:$PORT (logs: target/rekon.log, target/local-stack.log)
  apiserver kubeconfig: $KUBECONFIG_FILE
  registry:             $REGISTRY (notifications -> /webhooks/distribution, Bearer $TOKEN;
                        module publication from $REGISTRY/component-descriptors into kcp-system)
  git repository:       $GIT_URL (user:password ${GIT_USER}; push webhooks -> /webhooks/git, secret $GIT_SECRET)
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

Try the module lifecycle (README, "Modules"): push a component version, Rekon publishes it, a Kyma on
channel fast installs it:

  kubectl create namespace kcp-system
  hack/push-sample-module.sh $REGISTRY target/sample-module kcp-system $REGISTRY 0.4.1
  kubectl -n kcp-system get moduletemplates,modulereleasemetas
  printf 'apiVersion: operator.kyma-project.io/v1beta2\nkind: Kyma\nmetadata: {name: default, namespace: kcp-system}\nspec:\n  channel: fast\n  modules: [{name: kpack, managed: true}]\n' | kubectl apply -f -
  curl -sS http://127.0.0.1:$PORT/ -H 'ce-specversion: 1.0' -H 'ce-id: kyma-1' -H 'ce-source: local' \\
    -H 'ce-type: dev.rekon.modules.reconcile' -H 'Content-Type: application/json' \\
    -d '{"namespace":"kcp-system","name":"default"}'

Try declared state from git (README, "Declared state from git"): push two ConfigMaps, follow the branch,
then push a change that drops one:

  git clone -q $GIT_AUTH_URL /tmp/rekon-demo && mkdir -p /tmp/rekon-demo/apps
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {greeting: hello}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra}\n' >/tmp/rekon-demo/apps/settings.yaml
  git -C /tmp/rekon-demo add -A && git -C /tmp/rekon-demo -c user.name=demo -c user.email=demo@localhost commit -qm first && git -C /tmp/rekon-demo push -q origin HEAD:main

  kubectl create namespace team-a
  kubectl -n team-a create secret generic git-creds --from-literal=username=${GIT_USER%%:*} --from-literal=password=${GIT_USER#*:}
  kubectl apply -f knative/examples/declared/applier.yaml
  sed 's#https://git.example.com/platform/team-a.git#$GIT_URL#' knative/examples/declared/declaredstate.yaml | kubectl apply -f -

  curl -sS http://127.0.0.1:$PORT/ \\
    -H 'ce-specversion: 1.0' -H 'ce-id: ds-1' -H 'ce-source: local' \\
    -H 'ce-type: dev.rekon.declared.reconcile' -H 'Content-Type: application/json' \\
    -d '{"namespace":"team-a","name":"apps"}'
  kubectl -n team-a get declaredstates

  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {greeting: bonjour}\n' >/tmp/rekon-demo/apps/settings.yaml
  git -C /tmp/rekon-demo -c user.name=demo -c user.email=demo@localhost commit -qam second && git -C /tmp/rekon-demo push -q origin HEAD:main

  BODY='{"ref":"refs/heads/main","repository":{"clone_url":"$GIT_URL"}}'
  curl -sS -X POST http://127.0.0.1:$PORT/webhooks/git -H 'Content-Type: application/json' \\
    -H 'X-GitHub-Event: push' -H "X-GitHub-Delivery: \$(date +%s%N)" \\
    -H "X-Hub-Signature-256: sha256=\$(printf '%s' "\$BODY" | openssl dgst -sha256 -hmac '$GIT_SECRET' -hex | sed 's/^.* //')" \\
    --data "\$BODY"
  kubectl -n team-a get configmaps -l rekon.dev/declared-state=team-a.apps

Ctrl-C stops everything.
MSG
wait "${pids[@]}"
