package dev.rekon.modules.lifecycle;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.rekon.modules.manifest.SampleModule;
import dev.rekon.testing.Await;
import dev.rekon.testing.Commands;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * The README's module walkthrough, replayed with what {@code hack/push-sample-module.sh} publishes (the proof of
 * concept this project grew from): install kpack 0.4.1 into its namespace, bump to 0.4.3, refuse 2.0.0, delete
 * it, its namespace going with it. The test acts as the Deployment controller the test apiserver lacks.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class SampleWalkthroughEndToEndTest {

    static final String KYMA = "operator.kyma-project.io/v1beta2";
    static final String KCP = "kcp-walkthrough";
    static final String MODULE = "walkthrough";
    final KubernetesClient admin = LocalCluster.get().adminClient();

    @Test
    void installBumpRefuseUninstall(@TempDir Path dir) throws Exception {
        Commands.run(dir, "openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out",
                dir.resolve("key.pem").toString());
        String registry = LocalRegistry.get().hostPort();
        // The sample under names of its own: other tests use a module and a namespace called kpack.
        System.setProperty("rekon.sample.module", MODULE);
        System.setProperty("rekon.sample.namespace", MODULE);
        try {
            SampleModule.main(new String[] { registry, registry, dir.resolve("key.pem").toString(), dir.toString(), KCP,
                    "0.4.1", "0.4.3", "2.0.0" });
        } finally {
            System.clearProperty("rekon.sample.module");
            System.clearProperty("rekon.sample.namespace");
        }
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(KCP).endMetadata().build())
                .createOr(x -> x.update());
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("module")).toList()) {
                admin.resource(Serialization.unmarshal(Files.readString(f), GenericKubernetesResource.class)).create();
            }
        }
        admin.resource(Serialization.unmarshal("{\"apiVersion\":\"" + KYMA + "\",\"kind\":\"Kyma\",\"metadata\":"
                + "{\"name\":\"default\",\"namespace\":\"" + KCP + "\"},\"spec\":{\"channel\":\"regular\",\"modules\":"
                + "[{\"name\":\"" + MODULE + "\",\"managed\":true}]}}", GenericKubernetesResource.class)).create();

        reconcile().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleInstalled"))
                .body("toVersion", equalTo("0.4.1"));
        assertNotNull(admin.configMaps().inNamespace(MODULE).withName("kpack-config").get());
        assertEquals("Processing", moduleStatus().get("state"), "its manager Deployment is not available yet");
        admin.apps().deployments().inNamespace(MODULE).withName("kpack-controller").subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"replicas\":1,\"updatedReplicas\":1,"
                        + "\"readyReplicas\":1,\"availableReplicas\":1}}");
        reconcile();
        assertEquals("Ready", moduleStatus().get("state"));

        meta("0.4.3").body("outcome", equalTo("applied")).body("toVersion", equalTo("0.4.3"));
        assertNull(admin.configMaps().inNamespace(MODULE).withName("kpack-config").get(), "0.4.3 dropped it");

        meta("2.0.0").body("outcome", equalTo("rejected")).body("reason", equalTo("MajorStepTooLarge"));
        assertEquals("0.4.3", moduleStatus().get("version"));

        admin.genericKubernetesResources(KYMA, "Kyma").inNamespace(KCP).withName("default")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"modules\":[]}}");
        reconcile().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleUninstalled"));
        var ns = admin.namespaces().withName(MODULE).get();
        assertTrue(ns == null || ns.getMetadata().getDeletionTimestamp() != null, "the namespace goes");
        Await.until("the CRD to be gone", Duration.ofSeconds(20), () -> admin.apiextensions().v1()
                .customResourceDefinitions().withName("kpacks.operator.kyma-project.io").get() == null);
    }

    ValidatableResponse reconcile() {
        return given().header("ce-specversion", "1.0").header("ce-id", java.util.UUID.randomUUID().toString())
                .header("ce-type", KymaFunctions.RECONCILE_TYPE).header("ce-source", "curl")
                .contentType("application/json").body(Map.of("namespace", KCP, "name", "default"))
                .post("/").then().statusCode(200);
    }

    /** The ModuleReleaseMeta moved to a version, and its ApiServerSource event (Resource mode). */
    ValidatableResponse meta(String version) {
        var op = admin.genericKubernetesResources(KYMA, "ModuleReleaseMeta").inNamespace(KCP).withName(MODULE);
        op.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"channels\":[{\"channel\":\"regular\",\"version\":\""
                + version + "\"}]}}");
        return given().header("ce-specversion", "1.0").header("ce-id", java.util.UUID.randomUUID().toString())
                .header("ce-type", "dev.knative.apiserver.resource.update").header("ce-source", "https://apiserver")
                .header("ce-kind", "ModuleReleaseMeta").header("ce-name", MODULE).header("ce-namespace", KCP)
                .contentType("application/json").body(op.get()).post("/").then().statusCode(200);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> moduleStatus() {
        Map<String, Object> status = (Map<String, Object>) admin.genericKubernetesResources(KYMA, "Kyma").inNamespace(KCP)
                .withName("default").get().getAdditionalProperties().get("status");
        return ((List<Map<String, Object>>) status.get("modules")).stream().filter(m -> MODULE.equals(m.get("name")))
                .findFirst().orElseThrow();
    }
}
