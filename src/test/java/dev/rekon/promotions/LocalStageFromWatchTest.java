package dev.rekon.promotions;

import static dev.rekon.testing.Events.apiServerExtensions;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.rekon.promotions.apply.PromotionGateway;
import dev.rekon.promotions.view.StageImageDeploy;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.ImageDeployIndex;
import dev.rekon.testing.ApiCallSeries;
import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.PromotionFixtures;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A trigger plans a stage in this cluster from rollouts' ImageDeploy watch, as the application wires it (its beans
 * reached through their CDI proxies): once the watch shows the stage's ImageDeploy with {@code RolledOut}, a
 * source's build reads no ImageDeploy from the apiserver.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class LocalStageFromWatchTest {

    static final String NS = "promo-local-watch";

    @Inject
    PromotionService service;

    @Inject
    PromotionGateway gateway;

    @Inject
    ImageDeployIndex imageDeploys;

    @Test
    void aSourcesBuildPlansTheStageHereFromTheWatchWithoutReadingItsImageDeploy() {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, NS);
        PromotionFixtures.imageDeploy(k8s, NS, null);
        String image = "registry.local/" + NS + "/hello@sha256:" + "4".repeat(64);
        Events.binary("dev.knative.apiserver.resource.update", apiServerExtensions("kpack.io/v1alpha2", "Image", NS,
                "hello"), Kpack.json(Kpack.built(k8s, NS, "hello", image, 1))).statusCode(200);
        PromotionFixtures.promotion(k8s, NS, List.of(PromotionFixtures.localStage("dev", null)));
        Await.until("the watches show the promotion and its stage's ImageDeploy with RolledOut", () -> !gateway
                .promotions(NS).isEmpty() && imageDeploys.seen(RolloutNames.GROUP, NS, "hello").map(v -> StageImageDeploy
                        .of(NS, "hello", v.resourceVersion(), v.status()).rolledOut() != null).orElse(false));

        Map<String, Double> before = ApiCallSeries.now();
        service.sourceBuilt(NS, "hello");
        Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());

        grown.keySet().removeIf(series -> !(series.contains("method=\"GET\"") && series.contains("imagedeploys")));
        assertEquals(Map.of(), grown, "ImageDeploy reads of a trigger whose stage here the watch holds whole");
    }
}
