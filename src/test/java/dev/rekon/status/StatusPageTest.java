package dev.rekon.status;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.ApiCallSeries;
import dev.rekon.testing.Await;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * {@code GET /status} and {@code GET /} on the real apiserver: a lagging, a drifted, a suspended and a healthy
 * ImageDeploy, a failing Builder and a held-back module, each with its state and reason, answered from the watch
 * caches with zero API calls; {@code POST /} stays the CloudEvent endpoint.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class StatusPageTest {

    @BeforeEach
    void scene() {
        StatusScene.create(LocalCluster.get().adminClient());
    }

    /** The report, once the watches show every object of the scene in its final state. */
    static JsonPath settledReport() {
        JsonPath[] last = new JsonPath[1];
        Await.until("the status report shows the scene", Duration.ofSeconds(60), () -> {
            last[0] = Loaded.get("/status", null).then().statusCode(200).extract().jsonPath();
            return "Lagging".equals(rollout(last[0], "world").get("state"))
                    && "Drifted".equals(rollout(last[0], "hello-drifted").get("state"))
                    && "Healthy".equals(rollout(last[0], "hello").get("state"))
                    && "False".equals(row(last[0], "builders", "name", "sample-builder").get("ready"))
                    && "HeldBack".equals(row(last[0], "modules", "module", "kpack").get("state"));
        });
        return last[0];
    }

    static Map<String, Object> rollout(JsonPath report, String name) {
        return report.getList("rollouts", Map.class).stream()
                .filter(r -> StatusScene.NS.equals(r.get("namespace")) && name.equals(r.get("name"))).findFirst()
                .map(r -> (Map<String, Object>) r).orElse(Map.of());
    }

    static Map<String, Object> row(JsonPath report, String area, String key, String value) {
        return report.getList(area, Map.class).stream().filter(r -> value.equals(r.get(key))).findFirst()
                .map(r -> (Map<String, Object>) r).orElse(Map.of());
    }

    @Test
    void everyObjectAppearsWithItsStateAndReason() {
        JsonPath report = settledReport();
        assertEquals("InSync", rollout(report, "hello").get("reason"));
        assertEquals("True", rollout(report, "hello").get("inSync"));
        Map<String, Object> drifted = rollout(report, "hello-drifted");
        assertEquals("ManualChange", drifted.get("reason"));
        assertEquals("False", drifted.get("inSync"));
        assertEquals("ManualChange", drifted.get("inSyncReason"));
        assertTrue(((String) drifted.get("message")).contains(StatusScene.HOTFIX), (String) drifted.get("message"));
        Map<String, Object> paused = rollout(report, "hello-paused");
        assertEquals("Suspended", paused.get("state"));
        assertEquals(true, paused.get("suspended"));
        Map<String, Object> lagging = rollout(report, "world");
        assertEquals("NewerBuild", lagging.get("reason"));
        assertTrue(((String) lagging.get("message")).contains(StatusScene.WORLD_2), (String) lagging.get("message"));
        assertEquals("applied", ((Map<?, ?>) lagging.get("lastOutcome")).get("outcome"));
        assertEquals(true, row(report, "builders", "name", "sample-builder").get("problem"));
        assertTrue(row(report, "builders", "name", "sample-builder").get("error") != null);
        Map<String, Object> module = row(report, "modules", "module", "kpack");
        assertEquals("MajorStepTooLarge", module.get("reason"));
        assertEquals("2.0.0", module.get("newestOnChannel"));
        assertTrue(report.getList("decisions.recent.reason").contains("MajorStepTooLarge"));
        assertTrue(report.getString("decisions.scope").contains("this replica only"));
    }

    @Test
    void problemRowsComeFirstAndFiltersNarrowTheReport() {
        settledReport();
        JsonPath demo = given().get("/status?namespace=demo&area=rollouts").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("hello-drifted", "world", "hello-paused", "hello"), demo.getList("rollouts.name"));
        Object modules = demo.get("modules");
        org.junit.jupiter.api.Assertions.assertNull(modules);
        given().get("/status?area=everything").then().statusCode(400).body("error", equalTo("InvalidQuery"));
    }

    /** Measured in windows the application is otherwise quiet in ({@link ApiCallSeries#madeBy}). */
    @Test
    void aReportCostsNoApiCall() {
        settledReport();
        List<String> windows = ApiCallSeries.madeBy(() -> {
            for (int i = 0; i < 5; i++) {
                given().get("/status").then().statusCode(200);
                given().get("/").then().statusCode(200);
            }
        }, series -> true);
        assertEquals(List.of(), windows, "API calls made while answering 10 status requests, in each of 3 windows"
                + " the application was quiet before");
    }

    @Test
    void theHtmlPageAndTheCloudEventEndpointShareTheRoot() {
        settledReport();
        given().get("/").then().statusCode(200).contentType(containsString("text/html"))
                .body(containsString("Rekon status"), containsString("data-object=\"ImageDeploy demo/hello-drifted\""));
        given().header("ce-id", "x").header("ce-specversion", "1.0").header("ce-source", "test")
                .header("ce-type", "dev.rekon.unknown.type").contentType("application/json").body("{}").post("/")
                .then().statusCode(404).body("error", equalTo("NoFunction"));
    }

    /** Every API call the application made so far, by its own timer. */
    static double apiCalls() {
        return apiCallSeries().values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The application's API calls so far, per series of its timer (method, resource, status). */
    static Map<String, Double> apiCallSeries() {
        return ApiCallSeries.now();
    }
}
