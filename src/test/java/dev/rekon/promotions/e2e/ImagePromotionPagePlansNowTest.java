package dev.rekon.promotions.e2e;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.Events;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The page plans each ImagePromotion now, from its watched spec and what its last attempt read, not the last plan:
 * a soak changed by hand shows the new soak's end with no event since; a stage added by hand, never read, and a
 * promotion never attempted say they are not read yet, with no call to any stage.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ImagePromotionPagePlansNowTest {

    static final String NS = "promo-page-now";
    static final String B8 = "registry.local/promo-page-now/hello@sha256:" + "8".repeat(64);

    static KubernetesClient k8s;
    static Instant settled;

    @BeforeAll
    static void scene() {
        k8s = LocalCluster.get().adminClient();
        Kpack.namespace(k8s, NS);
        Kpack.built(k8s, NS, "hello", B8, 8);
        settled = Instant.now().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        GenericKubernetesResource idp = Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "hello-dev", "namespace": "%s"},
                 "spec": {"deployment": {"spec": {"replicas": 1, "selector": {"matchLabels": {"app": "hello-dev"}},
                   "template": {"metadata": {"labels": {"app": "hello-dev"}},
                     "spec": {"containers": [{"name": "web", "image": "REF=hello"}]}}}}}}
                """.formatted(NS), GenericKubernetesResource.class);
        var created = k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(idp).create();
        created.setAdditionalProperty("status", Map.of("images", List.of(Map.of("name", "hello", "image", B8)),
                "conditions", List.of(Map.of("type", "Ready", "status", "True", "reason", "Applied",
                        "lastTransitionTime", settled.toString()), Map.of("type", "RolledOut", "status", "True",
                                "reason", "RolloutComplete", "lastTransitionTime", settled.toString()))));
        k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(NS).resource(created).updateStatus();
        for (String name : List.of("soaked", "grown", "untouched")) {
            promotion(name);
        }
    }

    /** One stage, dev, following the kpack Image, soaking for 10m; its status says build 8 is Promoting there. */
    static void promotion(String name) {
        var client = k8s.genericKubernetesResources(ImagePromotionEndToEndTest.PROMOTIONS).inNamespace(NS);
        GenericKubernetesResource p = client.resource(Serialization.unmarshal("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImagePromotion", "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"source": {"image": "hello"}, "stages": [
                   {"name": "dev", "imageDeploys": ["hello-dev"], "soak": "10m"}]}}
                """.formatted(name, NS), GenericKubernetesResource.class)).create();
        p.setAdditionalProperty("status", Map.of("observedGeneration", 1, "stages", List.of(Map.of("name", "dev",
                "image", B8, "buildCounter", 8, "phase", "Promoting", "since", settled.toString()))));
        client.resource(p).updateStatus();
    }

    /** The promotion's spec edited by hand, as {@code kubectl edit} would: no event follows. */
    @SuppressWarnings("unchecked")
    static void edit(String name, java.util.function.Consumer<List<Map<String, Object>>> stages) {
        var client = k8s.genericKubernetesResources(ImagePromotionEndToEndTest.PROMOTIONS).inNamespace(NS);
        GenericKubernetesResource p = client.withName(name).get();
        Map<String, Object> spec = (Map<String, Object>) p.getAdditionalProperties().get("spec");
        List<Map<String, Object>> list = new ArrayList<>((List<Map<String, Object>>) spec.get("stages"));
        stages.accept(list);
        spec.put("stages", list);
        client.resource(p).update();
    }

    static JsonPath page() {
        return given().queryParam("area", "imagepromotions").queryParam("namespace", NS).get("/status").then()
                .statusCode(200).extract().jsonPath();
    }

    static Map<String, Object> row(JsonPath page, String name) {
        List<Map<String, Object>> rows = page.getList("sections.imagePromotions.rows");
        return rows.stream().filter(r -> name.equals(r.get("name"))).findFirst().orElseThrow(
                () -> new AssertionError("no row of ImagePromotion " + name + " in " + rows));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> stages(Map<String, Object> row) {
        return (List<Map<String, Object>>) row.get("stages");
    }

    @Test
    void aHandEditShowsAsPlannedNowAndWhatWasNeverReadSaysSo() {
        for (String name : List.of("soaked", "grown")) {
            Events.binary("dev.rekon.promotion.reconcile", Map.of(), "{\"namespace\": \"" + NS + "\", \"name\": \""
                    + name + "\"}").statusCode(200);
        }
        Map<String, Object> soaked = row(page(), "soaked");
        assertEquals("Soaking", stages(soaked).get(0).get("phase"));
        assertEquals(settled.plus(Duration.ofMinutes(10)).toString(), stages(soaked).get(0).get("soakEnd"));

        Map<String, Object> untouched = row(page(), "untouched");
        assertEquals("NotReadYet", untouched.get("reason"), untouched.toString());
        assertEquals("Unknown", untouched.get("ready"));
        assertEquals("Promoting", stages(untouched).get(0).get("phase"), "its status as written, not planned");
        assertFalse((Boolean) untouched.get("problem"));

        edit("soaked", stages -> stages.get(0).put("soak", "40m"));
        edit("grown", stages -> stages.add(Map.of("name", "staging", "promotedImage", "grown-staging",
                "imageDeploys", List.of("hello-staging"))));

        String soakEnd = settled.plus(Duration.ofMinutes(40)).toString();
        Await.until("the page plans ImagePromotion soaked with its new soak", Duration.ofSeconds(20),
                () -> soakEnd.equals(stages(row(page(), "soaked")).get(0).get("soakEnd")));
        Map<String, Object> now = row(page(), "soaked");
        assertTrue(((String) stages(now).get(0).get("soakLeft")).matches("3[89]m \\d+s"), now.toString());
        assertEquals("True", now.get("ready"));
        assertFalse((Boolean) now.get("carriedOut"), "the status written still says the old soak's end");

        Await.until("the page shows ImagePromotion grown's new stage", Duration.ofSeconds(20),
                () -> stages(row(page(), "grown")).size() == 2);
        Map<String, Object> grown = row(page(), "grown");
        assertEquals(List.of("dev", "staging"), stages(grown).stream().map(s -> s.get("name")).toList());
        assertEquals("NotReadYet", grown.get("reason"), grown.toString());
        assertTrue(((String) grown.get("message")).contains("stage staging"), grown.toString());
    }
}
