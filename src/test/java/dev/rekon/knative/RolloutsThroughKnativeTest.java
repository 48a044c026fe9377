package dev.rekon.knative;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.knative.KnativeLoop;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Image rollouts driven by Knative's own ApiServerSource adapter (knative.dev/eventing v0.50.0), configured from
 * the shipped {@code knative/eventing/} files, through the test broker's routing by the shipped Triggers: a kpack
 * Image's new latestImage rolls out its ImageDeploy, and a deleted ImageDeploy's Deployment is deleted, in
 * Resource mode and in Reference mode; kpush's ImageDeploy comes through its optional source. No event is sent by
 * the test itself.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class RolloutsThroughKnativeTest {

    private static final String DIGEST = "registry.local/%s/app@sha256:%064d";

    private final KubernetesClient admin = LocalCluster.get().adminClient();
    private KnativeLoop loop;

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.close();
        }
    }

    @Test
    void resourceModeRollsOutAndDeletes() {
        rollOutAndDelete("kn-rollouts", "Resource");
    }

    @Test
    void referenceModeRollsOutAndDeletes() {
        rollOutAndDelete("kn-rollouts-ref", "Reference");
    }

    @Test
    void kpushImageDeploysComeThroughTheirOptionalSource() {
        String ns = "kn-rollouts-kpush";
        watchedNamespace(ns);
        loop = KnativeLoop.start(LocalCluster.get(), RekonTestResource.port(), "rollouts-kpush");
        loop.start(loop.source("rekon-kpush-imagedeploys-source"));
        Kpack.built(admin, ns, "app", DIGEST.formatted(ns, 1), 1);
        GenericKubernetesResource legacy = imageDeploy(ns);
        legacy.setApiVersion("crd.whizzosoftware.com/v1alpha1");
        admin.resource(legacy).create();
        Await.until("the kpush ImageDeploy's Deployment", Duration.ofSeconds(30),
                () -> DIGEST.formatted(ns, 1).equals(image(ns)));
        loop.awaitDelivered("ImageDeploy", "app");
        loop.assertAllDeliveredOnce();
    }

    private void rollOutAndDelete(String ns, String mode) {
        watchedNamespace(ns);
        loop = KnativeLoop.start(LocalCluster.get(), RekonTestResource.port(), "rollouts-" + mode);
        loop.start(loop.source("rekon-rollouts").inMode(mode));
        loop.start(loop.source("rekon-imagedeploys-source").inMode(mode));

        Kpack.built(admin, ns, "app", DIGEST.formatted(ns, 1), 1);
        admin.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).resource(imageDeploy(ns)).create();
        Await.until("the ImageDeploy's Deployment at build 1", Duration.ofSeconds(30),
                () -> DIGEST.formatted(ns, 1).equals(image(ns)));

        Kpack.built(admin, ns, "app", DIGEST.formatted(ns, 2), 2);
        Await.until("the new latestImage rolled out", Duration.ofSeconds(30),
                () -> DIGEST.formatted(ns, 2).equals(image(ns)));
        loop.awaitDelivered("Image", "app");

        admin.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName("app").delete();
        // No garbage collector runs here: the Deployment goes only if Rekon deletes it on the delete event.
        Await.until("the Deployment deleted with its ImageDeploy", Duration.ofSeconds(30),
                () -> admin.apps().deployments().inNamespace(ns).withName("app").get() == null);
        Await.until("the delete event delivered", Duration.ofSeconds(10), () -> loop.deliveries("ImageDeploy", "app")
                .stream().anyMatch(d -> d.path("type").asText().endsWith(".delete")));
        loop.assertAllDeliveredOnce();
        String prefix = mode.equals("Reference") ? "dev.knative.apiserver.ref." : "dev.knative.apiserver.resource.";
        loop.deliveries("Image", "app").forEach(d -> assertTrue(d.path("type").asText().startsWith(prefix), d.toString()));
    }

    private String image(String ns) {
        Deployment d = admin.apps().deployments().inNamespace(ns).withName("app").get();
        return d == null ? null : d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private void watchedNamespace(String ns) {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
                .withLabels(Map.of("rekon.dev/watched", "true")).endMetadata().build()).createOr(n -> n.update());
    }

    private static GenericKubernetesResource imageDeploy(String ns) {
        return Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "app", "namespace": "%s"},
                 "spec": {"deployment": {"metadata": {"name": "app"},
                   "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "app"}},
                     "template": {"metadata": {"labels": {"app": "app"}},
                       "spec": {"containers": [{"name": "app", "image": "REF=app"}]}}}}}}
                """.formatted(ns), GenericKubernetesResource.class);
    }
}
