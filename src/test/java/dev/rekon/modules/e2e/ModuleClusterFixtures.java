package dev.rekon.modules.e2e;

import static io.restassured.RestAssured.given;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.ManualRelease;
import dev.rekon.modules.ocm.Normalisation;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.restassured.response.ValidatableResponse;

/**
 * What the module end-to-end tests set up on the real apiserver: a namespace per test (and its "-kcp" twin for
 * Kyma's objects), an installed module Deployment, signed ModuleTemplates, ModuleReleaseMetas, and the events.
 */
abstract class ModuleClusterFixtures {

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
}
