package dev.rekon.modules.lifecycle;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.status.Loaded;
import dev.rekon.testing.ApiCallSeries;
import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * What the module lifecycle reads, on the real apiserver and registry: a converged pass takes its Kymas,
 * ModuleTemplates and ModuleReleaseMetas from their watches (no GET of any of them), and the page plans every
 * watched Kyma's modules now, so that a hand change of a Kyma's module list shows before any pass or event; a
 * pass reads the modules' inventories and objects with lists shared by the whole pass, so that its reads do not
 * grow with the modules, and an object deleted by hand comes back with its one apply. Counted by the
 * application's own API call timer.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class LifecycleCacheFirstEndToEndTest extends LifecycleFixtures {

    static final String GROUP = "operator.kyma-project.io/";

    @Test
    void aConvergedPassReadsNoKymaTemplateOrReleaseMeta() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("reason", equalTo("ModuleInstalled"));
        Await.until("the watches to hold the status written", Duration.ofSeconds(10),
                () -> resync(true).extract().jsonPath().getInt("areas[0].unchanged") == 1);

        Map<String, Double> before = ApiCallSeries.now();
        resync(false).body("areas[0].unchanged", equalTo(1)).body("areas[0].changed", equalTo(0));
        Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());
        assertEquals(0, gets(grown, "kymas") + gets(grown, "moduletemplates") + gets(grown, "modulereleasemetas"),
                "a converged pass reads Kymas, ModuleTemplates and ModuleReleaseMetas from their watches: " + grown);
    }

    @Test
    void aPassReadsNoMoreForMoreModulesAndPutsBackAHandDeletedObjectWithOneApply() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("reason", equalTo("ModuleInstalled"));
        Map<String, Double> one = convergedPass(1);

        admin.configMaps().inNamespace(target).withName("settings").delete();
        Await.until("the deletion to be done", Duration.ofSeconds(10),
                () -> object("v1", "ConfigMap", target, "settings") == null);
        Map<String, Double> before = ApiCallSeries.now();
        resync(false).body("areas[0].changed", equalTo(1));
        Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());
        assertNotNull(object("v1", "ConfigMap", target, "settings"), "the pass puts the deleted object back");
        assertEquals(reads(one), reads(grown), "the pass that re-creates it reads no more than a converged one: "
                + grown + ", converged " + one);
        assertEquals(1.0, writes(grown) - calls(grown, "POST", "events"), "one apply of the missing object (and its"
                + " Event), nothing else written: " + grown);

        // A second Kyma with the same module: the objects are already there, it only records them.
        namedKyma("second", module);
        Await.until("the second Kyma to install its module", Duration.ofSeconds(20),
                () -> resync(false).extract().jsonPath().getInt("areas[0].unchanged") == 2);
        Map<String, Double> two = convergedPass(2);
        assertEquals(reads(one), reads(two), "a converged pass of two modules reads what one of one module reads, "
                + "every list shared by the pass, no GET per module: one " + one + ", two " + two);

    }

    @Test
    void thePassAfterARecreationReadsWhatAConvergedPassReads() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("reason", equalTo("ModuleInstalled"));
        Map<String, Double> one = convergedPass(1);

        admin.configMaps().inNamespace(target).withName("settings").delete();
        Await.until("the deletion to be done", Duration.ofSeconds(10),
                () -> object("v1", "ConfigMap", target, "settings") == null);
        resync(false).body("areas[0].changed", equalTo(1));

        Map<String, Double> before = ApiCallSeries.now();
        resync(false).body("areas[0].unchanged", equalTo(1)).body("areas[0].changed", equalTo(0));
        Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());
        assertEquals(reads(one), reads(grown), "the object re-created is taken at the resourceVersion its apply "
                + "answered, not read again: " + grown + ", converged " + one);
        assertEquals(0.0, writes(grown), "nothing written: " + grown);
    }

    /** A converged pass of {@code modules} modules, waited for, then one more, whose API calls are answered. */
    Map<String, Double> convergedPass(int modules) throws Exception {
        Await.until("the watches to hold the status written", Duration.ofSeconds(10),
                () -> resync(true).extract().jsonPath().getInt("areas[0].unchanged") == modules);
        resync(false).body("areas[0].unchanged", equalTo(modules));
        Map<String, Double> before = ApiCallSeries.now();
        resync(false).body("areas[0].unchanged", equalTo(modules)).body("areas[0].changed", equalTo(0));
        Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());
        assertEquals(0.0, writes(grown), "a converged pass writes nothing: " + grown);
        return grown;
    }

    /** The Kyma {@code name} beside {@code default}, listing the modules given. */
    void namedKyma(String name, String... modules) {
        StringBuilder listed = new StringBuilder();
        for (String m : modules) {
            listed.append(listed.isEmpty() ? "" : ", ").append("{name: ").append(m).append(", managed: true}");
        }
        admin.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("apiVersion: " + KYMA
                + "\nkind: Kyma\nmetadata: {name: " + name + ", namespace: " + kcp + "}\nspec:\n  channel: regular\n"
                + "  modules: [" + listed + "]\n", io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                .create();
    }

    static double reads(Map<String, Double> grown) {
        return grown.entrySet().stream().filter(e -> e.getKey().contains("method=\"GET\""))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    static double calls(Map<String, Double> grown, String method, String resource) {
        return grown.entrySet().stream().filter(e -> e.getKey().contains("method=\"" + method + "\"")
                && e.getKey().contains("resource=\"" + resource + "\"")).mapToDouble(Map.Entry::getValue).sum();
    }

    static double writes(Map<String, Double> grown) {
        return grown.entrySet().stream().filter(e -> !e.getKey().contains("method=\"GET\""))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    @Test
    void aHandChangeOfAKymasModulesShowsOnThePageBeforeAnyPass() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("reason", equalTo("ModuleInstalled"));
        assertEquals("Ready", row(report()).get("state"));

        kyma();
        Await.until("the page to plan the module's uninstall", Duration.ofSeconds(10),
                () -> "UNINSTALL".equals(row(report()).get("action")));
        Map<String, Object> row = row(report());
        assertEquals(true, row.get("pending"), "only planned: " + row);
        assertEquals("0.4.1", row.get("version"));
        assertNotNull(object("apps/v1", "Deployment", target, "controller"), "the page changes nothing");
    }

    @Test
    void aModuleNeverReadSaysSoOnThePage() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        Await.until("the page to show the module the Kyma lists", Duration.ofSeconds(10),
                () -> !row(report()).isEmpty());
        String message = String.valueOf(row(report()).get("message"));
        assertTrue(message.contains("not read yet"), message);
    }

    static double gets(Map<String, Double> grown, String plural) {
        return grown.entrySet().stream().filter(e -> e.getKey().contains("method=\"GET\"")
                && e.getKey().contains("resource=\"" + GROUP + plural + "\"")).mapToDouble(Map.Entry::getValue).sum();
    }

    ValidatableResponse resync(boolean report) {
        return given().header("ce-specversion", "1.0").header("ce-id", java.util.UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.resync").header("ce-source", "curl").contentType("application/json")
                .body(Map.of("scope", "kymas", "namespace", kcp, "report", report)).post("/").then().statusCode(200);
    }

    JsonPath report() {
        return Loaded.get("/status?area=modules&namespace=" + kcp, null).then().statusCode(200).extract().jsonPath();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> row(JsonPath report) {
        return report.getList("lifecycle.rows", Map.class).stream().filter(r -> module.equals(r.get("module")))
                .findFirst().map(r -> (Map<String, Object>) r).orElse(Map.of());
    }
}
