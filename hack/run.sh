#!/usr/bin/env bash
# The README's run command: a real local control plane with every CRD, a real registry, a git server with
# an empty repository "demo", and the functions connected to them. Prints sample events to post; Ctrl-C stops
# everything it started. REKON_STAGES=N (N > 1) also starts N-1 more apiservers, clusters for an ImagePromotion's
# later stages, and prints the README's promotion walkthrough too.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${REKON_PORT:-8080}"
TOKEN="${REKON_WEBHOOK_TOKEN:-local-token}"
REGISTRY_PORT="${REKON_REGISTRY_PORT:-5000}"
GIT_SECRET="${REKON_GIT_SECRET:-local-git-secret}"
STAGES="${REKON_STAGES:-1}"
case "$STAGES" in ''|*[!0-9]*) echo "[run] REKON_STAGES must be a number of stages (1 or more), not '$STAGES'" >&2; exit 2 ;; esac
stack_args=("$PORT" "$TOKEN" "$REGISTRY_PORT")
[ "$STAGES" -gt 1 ] && stack_args+=("$STAGES")

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

java -cp "target/test-classes:$(cat target/run-classpath.txt)" dev.rekon.testing.LocalStack "${stack_args[@]}" \
  >target/local-stack.log 2>&1 &
pids+=($!)
for _ in $(seq 1 $((STAGES > 1 ? 120 + 60 * (STAGES - 1) : 120))); do
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

# The walkthrough lines are the README's own (each code block after a "printed by hack/run.sh" marker), so the
# two never differ; only this run's port and git secret are put in where they are not the defaults. A marker
# "printed by hack/run.sh with REKON_STAGES" is printed only when this run started stage clusters.
walkthrough() {
  awk -v stages="$STAGES" '
       /^<!-- printed by hack\/run\.sh with REKON_STAGES/ && stages < 2 { want = 0; next }
       /^<!-- printed by hack\/run\.sh/ { want = 1; t = $0; sub(/^<!-- printed by hack\/run\.sh:? ?/, "", t);
                                          sub(/^with REKON_STAGES[^:]*: ?/, "", t);
                                          sub(/ ?-->$/, "", t); if (t != "") print "# " t; next }
       want && /^```sh$/ { inblock = 1; next }
       inblock && /^```$/ { inblock = 0; want = 0; print ""; next }
       inblock { print }' README.md \
    | sed -e "s#localhost:8080#localhost:$PORT#g" -e "s#127\.0\.0\.1:8080#127.0.0.1:$PORT#g" \
      -e "s#local-git-secret#$GIT_SECRET#g"
}

cat <<MSG

Rekon is running on http://127.0.0.1:$PORT (logs: target/rekon.log, target/local-stack.log)
  apiserver kubeconfig: $KUBECONFIG_FILE
  registry:             $REGISTRY (notifications -> /webhooks/distribution, Bearer $TOKEN;
                        module publication from $REGISTRY/component-descriptors into kcp-system)
  git repository:       $GIT_URL (user:password ${GIT_USER}; push webhooks -> /webhooks/git, secret $GIT_SECRET)
  status page:          http://127.0.0.1:$PORT/ (JSON: http://127.0.0.1:$PORT/status)
MSG
if [ "$STAGES" -gt 1 ]; then
  while read -r name port kubeconfig; do
    printf '  stage cluster %-9s https://127.0.0.1:%s (kubeconfig %s; Secret demo/%s-kubeconfig)\n' \
      "$name:" "$port" "$kubeconfig" "$name"
  done <target/local/stages
fi
cat <<MSG

The walkthroughs of README.md, run from the repository root in a second terminal:
MSG
walkthrough
echo "Ctrl-C stops everything."
wait "${pids[@]}"
