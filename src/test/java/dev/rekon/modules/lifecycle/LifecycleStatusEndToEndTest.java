package dev.rekon.modules.lifecycle;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.status.Loaded;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * {@code GET /status} and the status page list the modules Kymas install, on the real apiserver and registry:
 * version, state and object count once installed; a pending upgrade's prunes in report mode, gone once carried
 * out; a conflict naming the object; no row after uninstall; and that Rekon applies with its own identity.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class LifecycleStatusEndToEndTest extends LifecycleFixtures {

    @Test
    void anInstalledModuleItsPendingPrunesAndItsUninstallShowOnTheStatusPage() throws Exception {
        publish("0.4.1", false);
        publish("1.0.0", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("reason", equalTo("ModuleInstalled"));

        JsonPath report = report();
        assertNull(report.get("lifecycle.serviceAccount"), "rekon.modules.apply-as is not set in tests");
        assertTrue(report.getString("lifecycle.appliedAs").contains("Rekon's own identity"),
                report.getString("lifecycle.appliedAs"));
        Map<String, Object> row = row(report);
        assertEquals("default", row.get("kyma"));
        assertEquals(kcp, row.get("namespace"));
        assertEquals("regular", row.get("channel"));
        assertEquals("0.4.1", row.get("version"));
        assertEquals("Ready", row.get("state"));
        assertEquals(7, row.get("objects"), "Namespace, CRD, ServiceAccount, Role, ConfigMap, Deployment, default CR");
        assertEquals(List.of(), row.get("pendingPrunes"));
        assertEquals(List.of(), row.get("conflicts"));
        assertEquals(false, row.get("pending"));

        channel("1.0.0");
        resyncReport();
        row = row(report());
        assertEquals("0.4.1", row.get("version"), "a report changes nothing");
        assertEquals("1.0.0", row.get("release"));
        assertEquals("UPGRADE", row.get("action"));
        assertEquals(true, row.get("pending"));
        assertEquals(List.of("ConfigMap " + target + "/settings"), refs(row.get("pendingPrunes")));
        String page = page();
        assertTrue(page.contains("data-object=\"Kyma " + kcp + "/default module " + module + "\""), page);
        assertTrue(page.contains("prune ConfigMap " + target + "/settings"), page);
        assertTrue(page.contains("Rekon&#39;s own identity") || page.contains("Rekon's own identity"), page);

        releaseMetaEvent().body("reason", equalTo("ModuleUpgraded"));
        row = row(report());
        assertEquals("1.0.0", row.get("version"));
        assertEquals(6, row.get("objects"), "1.0.0 dropped the ConfigMap");
        assertEquals(List.of(), row.get("pendingPrunes"));
        assertEquals(false, row.get("pending"));

        kyma();
        kymaEvent().body("reason", equalTo("ModuleUninstalled"));
        assertEquals(Map.of(), row(report()), "an uninstalled module has no row");
    }

    @Test
    void aConflictIsAProblemRowNamingTheObject() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(target).endMetadata().build())
                .create();
        admin.configMaps().inNamespace(target).resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().addToData("owner", "someone else").build()).create();
        kyma(module);
        kymaEvent().body("reason", equalTo("Conflict"));

        Map<String, Object> row = row(report());
        assertEquals("Error", row.get("state"));
        assertEquals(true, row.get("problem"));
        assertEquals("Conflict", row.get("reason"));
        assertEquals(List.of("ConfigMap " + target + "/settings"), refs(row.get("conflicts")));
        assertEquals(0, row.get("objects"));
        assertTrue(page().contains("conflict ConfigMap " + target + "/settings"));
    }

    JsonPath report() {
        return Loaded.get("/status?area=modules&namespace=" + kcp, null).then().statusCode(200).extract().jsonPath();
    }

    String page() {
        return Loaded.get("/?area=modules&namespace=" + kcp, null).then().statusCode(200).extract().asString();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> row(JsonPath report) {
        return report.getList("lifecycle.rows", Map.class).stream().filter(r -> module.equals(r.get("module")))
                .findFirst().map(r -> (Map<String, Object>) r).orElse(Map.of());
    }

    @SuppressWarnings("unchecked")
    static List<String> refs(Object list) {
        return ((List<Map<String, Object>>) list).stream().map(r -> r.get("kind") + " " + r.get("namespace") + "/"
                + r.get("name")).toList();
    }

    io.restassured.response.ValidatableResponse resyncReport() {
        return given().header("ce-specversion", "1.0").header("ce-id", java.util.UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.resync").header("ce-source", "curl").contentType("application/json")
                .body(Map.of("scope", "kymas", "namespace", kcp, "report", true)).post("/").then().statusCode(200);
    }
}
