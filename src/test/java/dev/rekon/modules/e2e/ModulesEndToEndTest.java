package dev.rekon.modules.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.ManualRelease;
import dev.rekon.modules.ocm.Normalisation;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/** The README walkthrough and the concurrency guarantee, on the real apiserver with Kyma's real CRDs. */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = ModuleKeysResource.class, restrictToAnnotatedClass = true)
class ModulesEndToEndTest {

    static final String KYMA = "operator.kyma-project.io/v1beta2";
    final KubernetesClient admin = LocalCluster.get().adminClient();
    String ns;

    @BeforeEach
    void namespaces() {
        ns = "mod-" + UUID.randomUUID().toString().substring(0, 8);
        for (String n : List.of(ns, ns + "-kcp")) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(n).endMetadata().build())
                    .create();
        }
    }

    @Test
    void walkthroughUpgradesThenRefusesTwoMajors() {
        String module = module();
        installed(module, "0.4.1");
        template(module, "0.4.3", signed(module, "0.4.3"));
        releaseMeta(module, "0.4.3");

        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("applied"))
                .body("reason", equalTo("Upgraded")).body("module", equalTo(module))
                .body("fromVersion", equalTo("0.4.1")).body("toVersion", equalTo("0.4.3"));
        Deployment d = deployment(module);
        assertEquals("0.4.3", d.getMetadata().getLabels().get("app.kubernetes.io/version"));
        assertEquals("registry.example/kpack/controller:0.4.3@sha256:" + "1".repeat(64), image(d, "controller"));
        assertEquals("proxy:1", image(d, "sidecar"));

        String rv = d.getMetadata().getResourceVersion();
        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("unchanged"))
                .body("reason", equalTo("AlreadyAtVersion"));
        assertEquals(rv, deployment(module).getMetadata().getResourceVersion());

        template(module, "2.0.0", signed(module, "2.0.0"));
        releaseMeta(module, "2.0.0");
        apiServerEvent("ModuleTemplate", module + "-2.0.0").body("outcome", equalTo("rejected"))
                .body("reason", equalTo("MajorStepTooLarge")).body("fromVersion", equalTo("0.4.3"))
                .body("toVersion", equalTo("2.0.0"));
        assertEquals(rv, deployment(module).getMetadata().getResourceVersion());
    }

    @Test
    void refusesTamperedAndUnsignedReleases() {
        String module = module();
        installed(module, "0.4.1");
        ObjectNode tampered = signed(module, "0.4.3");
        ((ObjectNode) tampered.at("/component/resources/0/digest")).put("value", "9".repeat(64));
        template(module, "0.4.3", tampered);
        releaseMeta(module, "0.4.3");
        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("rejected"))
                .body("reason", equalTo("DigestMismatch"));
        manual(Map.of("module", module, "version", "0.4.3", "images", Map.of("controller", "c:0.4.3")))
                .body("outcome", equalTo("rejected")).body("reason", equalTo("SignatureMissing"));
        assertEquals("0.4.1", deployment(module).getMetadata().getLabels().get("app.kubernetes.io/version"));
    }

    @Test
    void parallelReleasesEndAtTheNewestVersion() throws Exception {
        String module = module();
        installed(module, "0.4.1");
        List<Callable<String>> posts = new ArrayList<>();
        for (String v : List.of("0.4.2", "0.5.0", "0.4.3", "0.5.1", "0.4.9", "0.5.1")) {
            posts.add(() -> manual(signedManual(module, v)).extract().path("outcome"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(posts.size());
        try {
            List<String> outcomes = new ArrayList<>();
            for (Future<String> f : pool.invokeAll(posts)) {
                outcomes.add(f.get());
            }
            assertTrue(outcomes.contains("applied"), outcomes.toString());
        } finally {
            pool.shutdown();
        }
        Deployment d = deployment(module);
        assertEquals("0.5.1", d.getMetadata().getLabels().get("app.kubernetes.io/version"));
        assertEquals("registry.example/kpack/controller:0.5.1", image(d, "controller"));
    }

    @Test
    void disablesEnablesAndLists() {
        String module = module();
        installed(module, "0.4.1");
        releaseMeta(module, "0.4.3");
        post(ModuleFunctionsTypes.DISABLE, Map.of("module", module)).body("reason", equalTo("Disabled"));
        assertEquals(0, deployment(module).getSpec().getReplicas());
        post(ModuleFunctionsTypes.DISABLE, Map.of("module", module)).body("reason", equalTo("AlreadyDisabled"));
        given().get("/modules").then().statusCode(200)
                .body("find { it.module == '" + module + "' }.enabled", equalTo(false))
                .body("find { it.module == '" + module + "' }.newestOnChannel", equalTo("0.4.3"))
                .body("module", hasItem(module));
        post(ModuleFunctionsTypes.ENABLE, Map.of("module", module)).body("reason", equalTo("Enabled"));
        Deployment d = deployment(module);
        assertEquals(2, d.getSpec().getReplicas());
        assertEquals(null, d.getMetadata().getAnnotations() == null ? null
                : d.getMetadata().getAnnotations().get("rekon.dev/replicas-before-disable"));
    }

    // --- fixtures -----------------------------------------------------------------------------------------

    /** A module name unique to the test, of the form Kyma's CRD allows (letters and dashes). */
    String module() {
        StringBuilder letters = new StringBuilder();
        ns.substring(4).chars().forEach(c -> letters.append((char) ('a' + Character.digit(c, 16))));
        return "kpack-" + letters;
    }

    void installed(String module, String version) {
        admin.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder().withNewMetadata()
                .withName(module).addToLabels("rekon.dev/module", module)
                .addToLabels("app.kubernetes.io/version", version).endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", module).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", module).endMetadata().withNewSpec()
                .addNewContainer().withName("controller").withImage("registry.example/kpack/controller:" + version)
                .endContainer().addNewContainer().withName("sidecar").withImage("proxy:1").endContainer()
                .endSpec().endTemplate().endSpec().build()).create();
    }

    Deployment deployment(String module) {
        return admin.apps().deployments().inNamespace(ns).withName(module).get();
    }

    static String image(Deployment d, String container) {
        return d.getSpec().getTemplate().getSpec().getContainers().stream()
                .filter(c -> c.getName().equals(container)).findFirst().orElseThrow().getImage();
    }

    ObjectNode signed(String module, String version) {
        ObjectNode descriptor = TestSigning.kpackDescriptor(version);
        ((ObjectNode) descriptor.get("component")).put("name", "kyma-project.io/module/" + module);
        return TestSigning.sign(descriptor, ModuleKeysResource.privateKey(), SignatureVerifier.PKCS1,
                Normalisation.V3);
    }

    void template(String module, String version, ObjectNode descriptor) {
        GenericKubernetesResource t = new GenericKubernetesResource();
        t.setApiVersion(KYMA);
        t.setKind("ModuleTemplate");
        t.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(module + "-" + version)
                .withNamespace(ns + "-kcp").build());
        t.setAdditionalProperty("spec", Map.of("moduleName", module, "version", version,
                "descriptor", TestSigning.JSON.convertValue(descriptor, Map.class)));
        admin.genericKubernetesResources(KYMA, "ModuleTemplate").inNamespace(ns + "-kcp").resource(t).create();
    }

    void releaseMeta(String module, String regular) {
        GenericKubernetesResource m = new GenericKubernetesResource();
        m.setApiVersion(KYMA);
        m.setKind("ModuleReleaseMeta");
        m.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(module)
                .withNamespace(ns + "-kcp").build());
        m.setAdditionalProperty("spec", Map.of("moduleName", module,
                "channels", List.of(Map.of("channel", "regular", "version", regular))));
        admin.genericKubernetesResources(KYMA, "ModuleReleaseMeta").inNamespace(ns + "-kcp").resource(m)
                .createOr(x -> x.patch());
    }

    /** An ApiServerSource event in Reference mode, as Knative sends it for an update. */
    ValidatableResponse apiServerEvent(String kind, String name) {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.knative.apiserver.ref.update").header("ce-source", "https://apiserver")
                .header("ce-kind", kind).header("ce-name", name).header("ce-namespace", ns + "-kcp")
                .contentType("application/json")
                .body(Map.of("apiVersion", KYMA, "kind", kind, "name", name, "namespace", ns + "-kcp"))
                .post("/").then().statusCode(200);
    }

    ValidatableResponse manual(Map<String, Object> data) {
        return post(ManualRelease.TYPE, data);
    }

    ValidatableResponse post(String type, Map<String, Object> data) {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", type).header("ce-source", "curl").contentType("application/json").body(data)
                .post("/").then().statusCode(200);
    }

    Map<String, Object> signedManual(String module, String version) {
        ObjectNode data = TestSigning.JSON.createObjectNode().put("module", module).put("version", version)
                .put("channel", "regular");
        data.putObject("images").put("controller", "registry.example/kpack/controller:" + version);
        String value = TestSigning.sign(ManualRelease.signedBytes(data), ModuleKeysResource.privateKey(),
                SignatureVerifier.PKCS1);
        data.putObject("signature").put("algorithm", SignatureVerifier.PKCS1).put("value", value);
        @SuppressWarnings("unchecked")
        Map<String, Object> map = TestSigning.JSON.convertValue(data, Map.class);
        return map;
    }

    /** The enable/disable event types, named here as the README documents them. */
    static final class ModuleFunctionsTypes {
        static final String ENABLE = "dev.rekon.modules.enable";
        static final String DISABLE = "dev.rekon.modules.disable";
    }
}
