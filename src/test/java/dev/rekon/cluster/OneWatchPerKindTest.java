package dev.rekon.cluster;

import static dev.rekon.testing.Events.apiServerExtensions;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.rekon.bench.Bench;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.resync.ResyncFunctions;
import dev.rekon.testing.ApiServerWatches;
import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * After an event of every area, a registry push, a resync of every scope and a status request, the apiserver sees
 * one watch per kind Rekon reads (its own long-running WATCH requests, by resource), never two: events, pushes,
 * the resync and the status page read facets of the same watch.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class OneWatchPerKindTest {


    @Inject
    SharedWatches watches;

    @Test
    void everyPathReadsTheOneWatchOfEachKind() throws Exception {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        String ns = "one-watch";
        Kpack.namespace(k8s, ns);
        Bench.imageDeploy(k8s, ns, "shop", "app", "shop");
        Events.binary("dev.knative.apiserver.resource.update", apiServerExtensions("kpack.io/v1alpha2", "Image", ns, "app"),
                Kpack.json(Kpack.built(k8s, ns, "app", "registry.local/shop/app@sha256:" + "a".repeat(64), 1)))
                .statusCode(200);
        Events.binary("dev.knative.apiserver.resource.update", apiServerExtensions("rekon.dev/v1alpha1", "ImageDeploy", ns,
                "shop"), Kpack.json(k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).withName("shop")
                        .get())).statusCode(200);
        // The other areas: a Builder (buildpacks), a module wake (image swap) and a Kyma (module lifecycle).
        Events.binary("dev.knative.apiserver.resource.update", apiServerExtensions("kpack.io/v1alpha2", "Builder", ns,
                "no-builder"), "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":\"Builder\",\"metadata\":"
                        + "{\"name\":\"no-builder\",\"namespace\":\"" + ns + "\"}}").statusCode(200);
        Events.binary("dev.rekon.modules.wake", Map.of(), "{\"module\":\"no-module\"}").statusCode(200);
        Events.binary("dev.knative.apiserver.resource.update", apiServerExtensions("operator.kyma-project.io/v1beta2",
                "Kyma", ns, "no-kyma"), "{\"apiVersion\":\"operator.kyma-project.io/v1beta2\",\"kind\":\"Kyma\","
                        + "\"metadata\":{\"name\":\"no-kyma\",\"namespace\":\"" + ns + "\"}}").statusCode(200);
        given().contentType("application/vnd.docker.distribution.events.v1+json")
                .header("Authorization", "Bearer " + LocalRegistry.NOTIFICATION_TOKEN)
                .body(Files.readString(Path.of("src/test/resources/webhooks/distribution/manifest-and-blob-push.json")))
                .post("/webhooks/distribution").then().statusCode(200);
        Events.binary(ResyncFunctions.TYPE, Map.of(), "{\"scope\":\"all\"}").statusCode(200);
        Await.until("the status page has loaded", () -> given().get("/status").statusCode() == 200);

        Map<String, Integer> byResource = new TreeMap<>();
        try {
            Await.until("one watch per kind Rekon reads " + watches.kinds(), () -> {
                byResource.clear();
                byResource.putAll(ApiServerWatches.byResource(k8s));
                return watches.kinds().stream().allMatch(k -> byResource.getOrDefault(k, 0) == 1);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the apiserver's running watches: " + byResource, e);
        }
        for (String kind : watches.kinds()) {
            assertEquals(1, byResource.getOrDefault(kind, 0), kind + " watches, of " + byResource);
        }
        assertEquals(Set.of("apps/deployments", "kpack.io/builders", "kpack.io/buildpacks", "kpack.io/clusterbuilders",
                "kpack.io/clusterbuildpacks", "kpack.io/images", "operator.kyma-project.io/kymas",
                "operator.kyma-project.io/modulereleasemetas",
                "operator.kyma-project.io/moduletemplates", "rekon.dev/declaredstates", "rekon.dev/imagedeploys",
                "rekon.dev/imagepromotions"),
                watches.kinds().stream().filter(k -> !k.startsWith("crd.whizzosoftware.com/")).collect(
                        java.util.stream.Collectors.toSet()), "the kinds Rekon watches");
    }
}
