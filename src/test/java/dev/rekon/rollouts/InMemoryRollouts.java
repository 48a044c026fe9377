package dev.rekon.rollouts;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.rollouts.apply.ImagePatchBody;
import dev.rekon.rollouts.apply.ImageDeployStatusBody;
import dev.rekon.rollouts.apply.NewDeploymentBody;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.plan.ImagePatch;
import dev.rekon.rollouts.plan.NewDeployment;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.testing.Failures;

/**
 * Rekon's {@link RolloutGateway} over maps, for service tables: writes are checked against resourceVersions as
 * the apiserver checks them (a stale one is a 409), applied to the stored objects, and logged in order. A test
 * can make the watch cache lag ({@link #staleCache}) or script the next failure of an operation.
 */
final class InMemoryRollouts implements RolloutGateway {

    final Map<String, KpackImage> images = new LinkedHashMap<>();
    /** PromotedImages by namespace/name, as the kpack Images they stand in for. */
    final Map<String, KpackImage> promotedImages = new LinkedHashMap<>();
    final Map<String, ObjectNode> imageDeploys = new LinkedHashMap<>();
    final Map<String, ObjectNode> deployments = new LinkedHashMap<>();
    /** What the watch cache shows in place of the stored Deployment, by namespace/name. */
    final Map<String, ObjectNode> staleCache = new HashMap<>();
    final List<String> writes = java.util.Collections.synchronizedList(new ArrayList<>());
    /** The Deployments read from the "apiserver" by name (a watch cache read is not one), in order. */
    final List<String> reads = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Deque<RuntimeException>> failNext = new HashMap<>();
    private long version = 100;

    synchronized InMemoryRollouts failNext(String operation, RuntimeException failure) {
        failNext.computeIfAbsent(operation, k -> new ArrayDeque<>()).add(failure);
        return this;
    }

    @Override
    public synchronized String imageGroup() {
        return "kpack.io";
    }

    @Override
    public synchronized List<String> imageDeployGroups() {
        return List.of(RolloutNames.GROUP);
    }

    @Override
    public synchronized Optional<String> imageDeployNotInstalled(String group) {
        return Optional.empty();
    }

    @Override
    public synchronized Optional<String> imageNotInstalled() {
        return Optional.empty();
    }

    @Override
    public synchronized Optional<KpackImage> image(String namespace, String name) {
        return Optional.ofNullable(images.get(namespace + "/" + name));
    }

    @Override
    public synchronized Optional<KpackImage> promotedImage(String namespace, String name) {
        return Optional.ofNullable(promotedImages.get(namespace + "/" + name));
    }

    @Override
    public synchronized List<ImageDeployView> imageDeploysFollowingPromoted(String namespace, String name) {
        return imageDeploys.values().stream().map(ImageDeployView::fromJson).filter(v -> v.namespace().equals(namespace)
                && v.follows(RolloutNames.PROMOTED_IMAGE_KIND, name)).toList();
    }

    @Override
    public synchronized Optional<ImageDeployView> imageDeploy(String group, String namespace, String name) {
        return Optional.ofNullable(imageDeploys.get(namespace + "/" + name)).map(ImageDeployView::fromJson);
    }

    @Override
    public synchronized Optional<Followed> imageDeployFollowing(String group, String namespace, String name) {
        return Optional.ofNullable(imageDeploys.get(namespace + "/" + name))
                .map(o -> new Followed(ImageDeployView.fromJson(o), o.path("spec").deepCopy()));
    }

    @Override
    public synchronized List<ImageDeployView> imageDeploysReferencing(String namespace, String imageName) {
        return imageDeploys.values().stream().map(ImageDeployView::fromJson)
                .filter(v -> v.namespace().equals(namespace) && v.references(imageName)).toList();
    }

    @Override
    public synchronized Optional<DeploymentView> deployment(String namespace, String name) {
        reads.add("get Deployment " + namespace + "/" + name);
        return stored(namespace, name);
    }

    /** Read (and logged) only when a Deployment without Rekon's label holds the name, as the watch shows it. */
    @Override
    public synchronized Optional<DeploymentView> deploymentIfTaken(String namespace, String name) {
        ObjectNode d = deployments.get(namespace + "/" + name);
        boolean taken = d != null && !"rekon".equals(d.path("metadata").path("labels").path(RolloutNames.MANAGED_BY)
                .asText());
        return taken ? deployment(namespace, name) : Optional.empty();
    }

    @Override
    public synchronized Optional<DeploymentView> deploymentCachedOrRead(String namespace, String name) {
        ObjectNode stale = staleCache.remove(namespace + "/" + name);
        return stale != null ? Optional.of(DeploymentView.fromJson(stale)) : stored(namespace, name);
    }

    private Optional<DeploymentView> stored(String namespace, String name) {
        return Optional.ofNullable(deployments.get(namespace + "/" + name)).map(DeploymentView::fromJson);
    }

    @Override
    public synchronized Optional<String> deploymentLabelledFor(String namespace, String imageDeploy) {
        return deployments.values().stream()
                .filter(d -> imageDeploy.equals(
                        d.at("/metadata/labels/" + RolloutNames.IMAGEDEPLOY_LABEL.replace("/", "~1")).asText()))
                .map(d -> d.at("/metadata/name").asText()).findFirst();
    }

    @Override
    public synchronized void createDeployment(NewDeployment planned) {
        ObjectNode deployment = NewDeploymentBody.of(planned);
        String key = deployment.at("/metadata/namespace").asText() + "/" + deployment.at("/metadata/name").asText();
        attempt("create", "Deployment " + key);
        if (deployments.containsKey(key)) {
            throw lostRace("creating Deployment " + key + ": it already exists");
        }
        ObjectNode stored = deployment.deepCopy();
        ((ObjectNode) stored.get("metadata")).put("resourceVersion", next());
        deployments.put(key, stored);
    }

    @Override
    public synchronized void patchDeployment(String namespace, String name, ImagePatch typed) {
        ObjectNode patch = ImagePatchBody.of(typed);
        String key = namespace + "/" + name;
        attempt("patch", "Deployment " + key);
        ObjectNode live = deployments.get(key);
        if (live == null || !live.at("/metadata/resourceVersion").asText().equals(patch.at("/metadata/resourceVersion").asText())) {
            throw lostRace("patching Deployment " + key);
        }
        StrategicMerge.apply(live, patch);
        ((ObjectNode) live.get("metadata")).put("resourceVersion", next());
    }

    @Override
    public synchronized boolean deleteDeployment(DeploymentView planned) {
        String key = planned.namespace() + "/" + planned.name();
        attempt("delete", "Deployment " + key);
        ObjectNode live = deployments.get(key);
        if (live != null && (!live.at("/metadata/resourceVersion").asText().equals(planned.resourceVersion())
                || !java.util.Objects.equals(live.at("/metadata/uid").asText(null), planned.uid()))) {
            throw lostRace("deleting Deployment " + key);
        }
        return deployments.remove(key) != null;
    }

    @Override
    public synchronized Optional<String> writeStatus(ImageDeployView idp, ImageDeployStatus status) {
        String key = idp.namespace() + "/" + idp.name();
        attempt("status", "ImageDeploy " + key);
        ObjectNode live = imageDeploys.get(key);
        if (live == null || !live.at("/metadata/resourceVersion").asText().equals(idp.resourceVersion())) {
            throw lostRace("updating the status of ImageDeploy " + key);
        }
        live.set("status", ImageDeployStatusBody.of(idp.status(), status));
        String written = next();
        ((ObjectNode) live.get("metadata")).put("resourceVersion", written);
        return Optional.of(written);
    }

    /**
     * Logs the write attempt, and throws the failure scripted for it, if any: a refusal names the object written,
     * as the gateway's edge names it.
     */
    private void attempt(String operation, String object) {
        Deque<RuntimeException> scripted = failNext.get(operation);
        RuntimeException failure = scripted == null ? null : scripted.poll();
        writes.add(operation + " " + object + (failure == null ? "" : " (failed)"));
        if (failure instanceof RefusedException r && r.ref() == null) {
            throw new KubeErrors.PermanentApiException(r.code(), refOf(object), r.getMessage(), r);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static ObjectRef refOf(String object) {
        String[] kindAndName = object.split(" ", 2);
        String[] nsAndName = kindAndName[1].split("/", 2);
        String apiVersion = "Deployment".equals(kindAndName[0]) ? "apps/v1" : RolloutNames.GROUP + "/v1alpha1";
        return new ObjectRef(apiVersion, kindAndName[0], nsAndName[0], nsAndName[1]);
    }

    /** Marks the write just logged as a lost race, as the apiserver answers it. */
    private RuntimeException lostRace(String what) {
        writes.set(writes.size() - 1, writes.get(writes.size() - 1) + " (conflict)");
        return Failures.conflict(what);
    }

    private String next() {
        return String.valueOf(++version);
    }

    /** The part of Kubernetes' strategic merge the rollout patches use: maps merge, containers merge by name. */
    static final class StrategicMerge {
        private StrategicMerge() {
        }

        static void apply(ObjectNode target, JsonNode patch) {
            for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode current = target.get(e.getKey());
                if (e.getValue().isObject() && current != null && current.isObject()) {
                    apply((ObjectNode) current, e.getValue());
                } else if (e.getValue().isArray() && current != null && current.isArray()) {
                    mergeByName(current, e.getValue());
                } else {
                    target.set(e.getKey(), e.getValue().deepCopy());
                }
            }
        }

        private static void mergeByName(JsonNode current, JsonNode patch) {
            for (JsonNode p : patch) {
                for (JsonNode c : current) {
                    if (c.path("name").asText().equals(p.path("name").asText())) {
                        apply((ObjectNode) c, p);
                    }
                }
            }
        }
    }
}
