package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTED;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.PromotionFixtures;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.restassured.response.ValidatableResponse;

/**
 * The clusters of a promotion end-to-end test: dev, the cluster this Rekon runs in, with the promotion's namespace and
 * its ImageDeploy {@code hello} following the kpack Image; stage clusters of their own ({@link StageApiServer}), each
 * with the same namespace and an ImageDeploy following the PromotedImage, reached through kubeconfig Secrets in dev.
 * It also plays each stage cluster's Rekon and Deployment controller ({@link #stageRollsOut}), and sends the
 * promotion's own reconcile and approve events. {@link #close} stops the stage apiservers it started.
 */
final class StageClusters implements AutoCloseable {

    static final Path DIR = Path.of("target", "stage-apiservers");

    private final String ns;
    private final KubernetesClient dev;
    private final List<StageApiServer> stages = new ArrayList<>();

    private StageClusters(String ns) {
        this.ns = ns;
        this.dev = LocalCluster.get().adminClient();
    }

    /** Dev's namespace {@code ns} and its ImageDeploy {@code hello} following the kpack Image. */
    static StageClusters in(String ns) {
        StageClusters clusters = new StageClusters(ns);
        ImagePromotionEndToEndTest.k8s = clusters.dev;
        Kpack.namespace(clusters.dev, ns);
        ImagePromotionEndToEndTest.imageDeploy(ns, null);
        return clusters;
    }

    /** Starts the stage cluster {@code name}, with the namespace and its ImageDeploy following the PromotedImage. */
    StageApiServer stage(String name) {
        return stage(name, DIR);
    }

    /** The same, reached through the kubeconfig Secret {@code <name>-kubeconfig} in dev's namespace. */
    StageApiServer stageWithSecret(String name) {
        StageApiServer stage = stage(name);
        kubeconfigSecret(name + "-kubeconfig", stage.kubeconfig());
        return stage;
    }

    /** The same, its apiserver's log under {@code dir}. */
    StageApiServer stage(String name, Path dir) {
        StageApiServer stage = StageApiServer.start(name, dir);
        stages.add(stage);
        stageImageDeploy(stage, ns);
        return stage;
    }

    /** A stage in namespace {@code stageNs} of dev itself, its ImageDeploy following the PromotedImage. */
    void namespaceStage(String stageNs) {
        Kpack.namespace(dev, stageNs);
        ImagePromotionEndToEndTest.imageDeploy(stageNs, "PromotedImage");
    }

    /**
     * A stage cluster whose ImageDeploy carries the whole Deployment (replicas, selector, labels) as a stage's own
     * Rekon rolls it out, rather than the bare one {@link #stage} makes for the test to play that Rekon.
     */
    StageApiServer deployableStage(String name, Path dir) {
        StageApiServer stage = StageApiServer.start(name, dir);
        stages.add(stage);
        Kpack.namespace(stage.adminClient(), ns);
        PromotionFixtures.imageDeploy(stage.adminClient(), ns, "PromotedImage");
        return stage;
    }

    KubernetesClient dev() {
        return dev;
    }

    String namespace() {
        return ns;
    }

    /** The kubeconfig Secret {@code name} in dev's namespace, holding {@code kubeconfig} (created or replaced). */
    void kubeconfigSecret(String name, String kubeconfig) {
        PromotionFixtures.kubeconfigSecret(dev, ns, name, kubeconfig);
    }

    /** The ImagePromotion {@code hello} in dev's namespace through these stages ({@link PromotionFixtures#stage}). */
    void promotion(String... stages) {
        PromotionFixtures.promotion(dev, ns, List.of(stages));
    }

    /** The trigger that reads the promotion {@code hello} again; its reply's status is the caller's to check. */
    ValidatableResponse reconcile() {
        return Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + ns
                + "\", \"name\": \"hello\"}");
    }

    /** An approval of {@code image} for the stage {@code stage}, answered 200. */
    ValidatableResponse approve(String stage, String image) {
        return Events.binary("dev.rekon.promotion.approve", Map.of(), """
                {"namespace": "%s", "name": "hello", "stage": "%s", "image": "%s"}""".formatted(ns, stage, image))
                .statusCode(200);
    }

    /** The status of the promotion {@code hello} in dev's namespace (missing when it has none). */
    JsonNode promotionStatus() {
        return ImagePromotionEndToEndTest.JSON.valueToTree(dev.genericKubernetesResources(
                ImagePromotionEndToEndTest.PROMOTIONS).inNamespace(ns).withName("hello").get()).path("status");
    }

    /** The status of the promotion's stage {@code name}, empty when the status has none. */
    JsonNode stageStatus(String name) {
        for (JsonNode s : promotionStatus().path("stages")) {
            if (name.equals(s.path("name").asText())) {
                return s;
            }
        }
        return ImagePromotionEndToEndTest.JSON.createObjectNode();
    }

    /** The image the stage's PromotedImage {@code hello} carries, or null when there is none. */
    String promotedIn(StageApiServer stage) {
        return promotedIn(stage, ns);
    }

    /** The stage cluster's Rekon and Deployment controller, in this namespace. */
    void stageRollsOut(StageApiServer stage) {
        stageRollsOut(stage, ns);
    }

    /** The namespace in a stage cluster and its ImageDeploy {@code hello}, following the PromotedImage. */
    static void stageImageDeploy(StageApiServer stage, String ns) {
        Kpack.namespace(stage.adminClient(), ns);
        stage.adminClient().genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(
                Serialization.unmarshal("""
                        {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                         "metadata": {"name": "hello", "namespace": "%s"},
                         "spec": {"refKind": "PromotedImage", "deployment": {"spec": {"template": {"spec": {
                           "containers": [{"name": "web", "image": "REF=hello"}]}}}}}}
                        """.formatted(ns), GenericKubernetesResource.class)).create();
    }

    /**
     * The stage cluster's Rekon and Deployment controller in namespace {@code ns}: the ImageDeploy runs what the
     * PromotedImage says, Ready, and its Deployment has rolled out.
     */
    static void stageRollsOut(StageApiServer stage, String ns) {
        KubernetesClient k = stage.adminClient();
        GenericKubernetesResource promoted = k.genericKubernetesResources(PROMOTED).inNamespace(ns).withName("hello")
                .get();
        String image = String.valueOf(((Map<?, ?>) promoted.getAdditionalProperties().get("status")).get("latestImage"));
        String now = Instant.now().minusSeconds(1).toString();
        GenericKubernetesResource idp = k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns)
                .withName("hello").get();
        idp.setAdditionalProperty("status", Map.of("deployment", "hello", "images", List.of(Map.of("name", "hello",
                "image", image)), "conditions", List.of(Map.of("type", "Ready", "status", "True", "reason", "Applied",
                        "lastTransitionTime", now))));
        k.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(idp).updateStatus();
        Deployment d = Serialization.unmarshal("""
                {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"selector": {"matchLabels": {"app": "hello"}}, "template": {"metadata": {"labels":
                   {"app": "hello"}}, "spec": {"containers": [{"name": "web", "image": "%s"}]}}}}
                """.formatted(ns, image), Deployment.class);
        k.apps().deployments().inNamespace(ns).resource(d).createOr(x -> x.update());
        k.apps().deployments().inNamespace(ns).withName("hello").editStatus(x -> {
            x.setStatus(Serialization.unmarshal("""
                    {"observedGeneration": %d, "replicas": 1, "updatedReplicas": 1, "readyReplicas": 1,
                     "availableReplicas": 1, "conditions": [
                       {"type": "Available", "status": "True", "lastTransitionTime": "%s", "lastUpdateTime": "%s"},
                       {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable",
                        "lastTransitionTime": "%s", "lastUpdateTime": "%s"}]}
                    """.formatted(x.getMetadata().getGeneration(), now, now, now, now), DeploymentStatus.class));
            return x;
        });
    }

    /**
     * The image the stage's PromotedImage {@code hello} in {@code ns} carries, or null when there is none (nor a
     * status yet: Rekon creates it, then writes its status).
     */
    static String promotedIn(StageApiServer stage, String ns) {
        GenericKubernetesResource r = stage.adminClient().genericKubernetesResources(PROMOTED).inNamespace(ns)
                .withName("hello").get();
        return r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status) ? null
                : String.valueOf(status.get("latestImage"));
    }

    /** Stops the stage apiservers this fixture started. */
    @Override
    public void close() {
        stages.forEach(StageApiServer::close);
    }
}
