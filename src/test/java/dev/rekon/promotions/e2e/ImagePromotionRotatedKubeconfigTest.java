package dev.rekon.promotions.e2e;

import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.PROMOTIONS;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.event;
import static dev.rekon.promotions.e2e.ImagePromotionEndToEndTest.rolledOut;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.StageApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A stage's kubeconfig Secret rotated to another cluster between two builds: the next promotion reads and writes
 * only the cluster the Secret names now, although the stage was last reached, and is read ahead, with the client of
 * the old one.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionRotatedKubeconfigTest {

    static final String NS = "promo-rotated";
    static final String B1 = "registry.local/promo-rotated/hello@sha256:" + "1".repeat(64);
    static final String B2 = "registry.local/promo-rotated/hello@sha256:" + "2".repeat(64);

    static KubernetesClient dev;
    static StageApiServer before;
    static StageApiServer after;

    @BeforeAll
    static void clusters() {
        dev = LocalCluster.get().adminClient();
        ImagePromotionEndToEndTest.k8s = dev;
        Path dir = Path.of("target", "stage-apiservers");
        before = StageApiServer.start("rotated-before", dir);
        after = StageApiServer.start("rotated-after", dir);
        Kpack.namespace(dev, NS);
        ImagePromotionEndToEndTest.imageDeploy(NS, null);
        for (StageApiServer stage : List.of(before, after)) {
            ImagePromotionStageClustersTest.stageImageDeploy(stage, NS);
        }
    }

    @AfterAll
    static void stop() {
        before.close();
        after.close();
    }

    static void secret(String kubeconfig) {
        dev.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("stage-kubeconfig")
                .endMetadata().addToStringData("kubeconfig", kubeconfig).build()).createOr(s -> s.update());
    }

    static String promotedIn(StageApiServer stage) {
        return ImagePromotionStageClustersTest.promotedIn(stage, NS);
    }

    @Test
    void theNextPromotionGoesOnlyWhereTheSecretNowPoints() {
        secret(before.kubeconfig());
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B1, 1)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        dev.genericKubernetesResources(PROMOTIONS).inNamespace(NS).resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion",
                 "metadata": {"name": "hello", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "stages": [
                   {"name": "dev", "imageDeploys": ["hello"]},
                   {"name": "staging", "cluster": {"secretRef": {"name": "stage-kubeconfig"}}, "namespace": "%s",
                    "promotedImage": "hello", "imageDeploys": ["hello"]}]}}
                """.formatted(NS, NS), GenericKubernetesResource.class)).createOr(r -> r.update());
        reconcile().body("reason", equalTo("Promoted"));
        assertEquals(B1, promotedIn(before));

        secret(after.kubeconfig());
        event("Image", NS, "hello", Kpack.built(dev, NS, "hello", B2, 2)).body("outcome", equalTo("applied"));
        rolledOut(NS);
        // A trigger of its own (the ImageDeploy's watch) may promote first; the reconcile then changes nothing.
        reconcile();
        Await.until("B2 promoted to the cluster the Secret names now", () -> B2.equals(
                promotedIn(after)));
        assertEquals(B1, promotedIn(before), "nothing written to the cluster it named before");
    }

    static io.restassured.response.ValidatableResponse reconcile() {
        return Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS
                + "\", \"name\": \"hello\"}").statusCode(200);
    }
}
