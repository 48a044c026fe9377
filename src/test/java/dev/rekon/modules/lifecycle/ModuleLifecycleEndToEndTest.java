package dev.rekon.modules.lifecycle;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The module lifecycle on the real apiserver and registry, as a Kyma user drives it: list a module in the Kyma
 * and it is installed from its raw-manifest; release a new version on its channel and it is upgraded, what the
 * new version dropped pruned; remove it from the Kyma and it is uninstalled in order, waiting for other resources
 * of its CRD; a name someone else owns, a tampered blob or a step of two majors is refused before any write.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class ModuleLifecycleEndToEndTest extends LifecycleFixtures {

    @Test
    void installUpgradeWithPruneThenUninstallBlockedByAResource() throws Exception {
        publish("0.4.1", false);
        publish("1.0.0", false);
        channel("0.4.1");
        kyma(module);

        kymaEvent().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleInstalled"))
                .body("module", equalTo(module)).body("toVersion", equalTo("0.4.1"));
        assertNotNull(object("v1", "ConfigMap", target, "settings"));
        assertNotNull(object(group + "/v1", "Widget", target, "default"), "the default CR is applied");
        GenericKubernetesResource deployment = object("apps/v1", "Deployment", target, "controller");
        assertEquals("rekon", deployment.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
        assertEquals(module, deployment.getMetadata().getLabels().get("rekon.dev/module"));
        assertEquals("Ready", moduleStatus().get("state"));
        assertEquals("0.4.1", moduleStatus().get("version"));
        assertEquals("Ready", kymaStatus().get("state"));

        String rv = deployment.getMetadata().getResourceVersion();
        kymaEvent().body("outcome", equalTo("unchanged")).body("reason", equalTo("ModuleInSync"));
        assertEquals(rv, object("apps/v1", "Deployment", target, "controller").getMetadata().getResourceVersion(),
                "the same event twice changes nothing");

        channel("1.0.0");
        releaseMetaEvent().body("outcome", equalTo("applied")).body("message", containsString("upgraded module"));
        assertNull(object("v1", "ConfigMap", target, "settings"), "1.0.0 dropped the ConfigMap: pruned");
        assertEquals("1.0.0", moduleStatus().get("version"));

        GenericKubernetesResource extra = new GenericKubernetesResource();
        extra.setApiVersion(group + "/v1");
        extra.setKind("Widget");
        extra.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("users-own")
                .withNamespace(target).build());
        admin.resource(extra).create();
        kyma();
        kymaEvent().body("reason", equalTo("ModuleDeleting")).body("message", containsString("users-own"));
        assertNull(object(group + "/v1", "Widget", target, "default"), "the default CR goes first");
        assertEquals("Deleting", moduleStatus().get("state"));
        assertNotNull(object("apps/v1", "Deployment", target, "controller"), "the rest waits");

        admin.resource(extra).delete();
        kymaEvent().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleUninstalled"));
        for (String kind : List.of("Deployment", "Role", "ServiceAccount", "ConfigMap")) {
            String apiVersion = kind.equals("Deployment") ? "apps/v1" : kind.equals("Role")
                    ? "rbac.authorization.k8s.io/v1" : "v1";
            assertEquals(List.of(), labelled(apiVersion, kind), kind + "s of the module are gone");
        }
        // Current servers finalize a deleted CRD (customresourcecleanup) before it is gone.
        Await.until("the module's CRD to be gone", Duration.ofSeconds(20),
                () -> object("apiextensions.k8s.io/v1", "CustomResourceDefinition", null, "widgets." + group) == null);
        GenericKubernetesResource ns = object("v1", "Namespace", null, target);
        assertTrue(ns == null || ns.getMetadata().getDeletionTimestamp() != null, "the module's namespace goes");
        assertNull(moduleStatus(), "the Kyma no longer reports the module");
    }

    @Test
    void aReleaseMetaEventInReferenceModeUpgradesTheKyma() throws Exception {
        publish("0.4.1", false);
        publish("1.0.0", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("reason", equalTo("ModuleInstalled"));

        channel("1.0.0");
        releaseMetaReferenceEvent().body("outcome", equalTo("applied"))
                .body("message", containsString("upgraded module"));
        assertEquals("1.0.0", moduleStatus().get("version"));
        releaseMetaReferenceEvent().body("outcome", equalTo("unchanged"));
    }

    @Test
    void anObjectOfSomeoneElseIsAConflictAndNothingIsApplied() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName(target).endMetadata().build()).create();
        admin.configMaps().inNamespace(target).resource(new ConfigMapBuilder().withNewMetadata().withName("settings")
                .endMetadata().addToData("owner", "someone else").build()).create();
        kyma(module);

        kymaEvent().body("outcome", equalTo("rejected")).body("reason", equalTo("Conflict"))
                .body("message", containsString("ConfigMap " + target + "/settings"));
        assertNull(object("apps/v1", "Deployment", target, "controller"), "nothing of the release is applied");
        assertEquals("someone else", admin.configMaps().inNamespace(target).withName("settings").get().getData()
                .get("owner"));
        assertEquals("Error", moduleStatus().get("state"));
    }

    @Test
    void aTamperedManifestAndATwoMajorStepAreRefused() throws Exception {
        publish("0.4.1", true);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("outcome", equalTo("rejected")).body("reason", equalTo("ManifestRefused"));
        assertNull(object("v1", "Namespace", null, target), "nothing applied");

        publish("0.4.3", false);
        publish("2.0.0", false);
        channel("0.4.3");
        kymaEvent().body("reason", equalTo("ModuleInstalled"));
        channel("2.0.0");
        releaseMetaEvent().body("outcome", equalTo("rejected")).body("reason", equalTo("MajorStepTooLarge"));
        assertEquals("0.4.3", moduleStatus().get("version"));
        assertNotNull(object("v1", "ConfigMap", target, "settings"), "0.4.3 still runs");
    }

    @Test
    void theResyncTakesBackWhatWasChangedByHandAndLeavesOtherManagersFields() throws Exception {
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("reason", equalTo("ModuleInstalled"));
        admin.configMaps().inNamespace(target).withName("settings").delete();
        admin.apps().deployments().inNamespace(target).withName("controller").edit(d -> {
            d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("registry.example/hand-made:1");
            d.getSpec().setReplicas(3); // not in the manifest: another manager's field (an HPA's, say)
            return d;
        });
        resync().body("outcome", equalTo("applied")).body("areas[0].changed", equalTo(1))
                .body("areas[0].objects[0].reason", equalTo("ModuleDriftRepaired"));
        assertNotNull(object("v1", "ConfigMap", target, "settings"), "deleted by hand: back");
        var d = admin.apps().deployments().inNamespace(target).withName("controller").get();
        assertEquals("registry.example/widgets:0.4.1", d.getSpec().getTemplate().getSpec().getContainers().get(0)
                .getImage(), "a field the manifest sets returns");
        assertEquals(3, d.getSpec().getReplicas(), "a field the manifest leaves out stays");

        String rv = d.getMetadata().getResourceVersion();
        String kymaRv = object(KYMA, "Kyma", kcp, "default").getMetadata().getResourceVersion();
        resync().body("outcome", equalTo("unchanged"));
        assertEquals(rv, admin.apps().deployments().inNamespace(target).withName("controller").get().getMetadata()
                .getResourceVersion(), "a converged module costs no write");
        assertEquals(kymaRv, object(KYMA, "Kyma", kcp, "default").getMetadata().getResourceVersion(),
                "nor a write of the Kyma's status");
    }

    io.restassured.response.ValidatableResponse resync() {
        return io.restassured.RestAssured.given().header("ce-specversion", "1.0")
                .header("ce-id", java.util.UUID.randomUUID().toString()).header("ce-type", "dev.rekon.resync")
                .header("ce-source", "curl").contentType("application/json")
                .body(Map.of("scope", "kymas", "namespace", kcp)).post("/").then().statusCode(200);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> moduleStatus() {
        Map<String, Object> status = kymaStatus();
        if (status == null) {
            return null;
        }
        return ((List<Map<String, Object>>) status.getOrDefault("modules", List.of())).stream()
                .filter(m -> module.equals(m.get("name"))).findFirst().orElse(null);
    }
}
