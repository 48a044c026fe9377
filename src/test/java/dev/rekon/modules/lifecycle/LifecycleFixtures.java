package dev.rekon.modules.lifecycle;

import static io.restassured.RestAssured.given;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.modules.manifest.ManifestFixtures;
import dev.rekon.modules.manifest.OcmRegistry;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.restassured.response.ValidatableResponse;

/**
 * A module of its own per test, published as Kyma publishes modules: its raw-manifest a tar in a real registry
 * (a local blob of its OCM component), a ModuleTemplate per version and a ModuleReleaseMeta in the Kyma's
 * namespace ({@code kcp}). The module's objects go to its own namespace ({@code target}), which its manifest
 * creates; its CRD is named after the module, so tests never share cluster-scoped objects.
 */
abstract class LifecycleFixtures {

    static final String KYMA = "operator.kyma-project.io/v1beta2";
    final KubernetesClient admin = LocalCluster.get().adminClient();
    String kcp;
    String target;
    String module;
    String group;
    /** Files added to a version's manifest, by version. */
    final Map<String, Map<String, String>> extraFiles = new java.util.HashMap<>();

    @BeforeEach
    void names() {
        String id = UUID.randomUUID().toString().substring(0, 8);
        StringBuilder letters = new StringBuilder();
        id.chars().forEach(c -> letters.append((char) ('a' + Character.digit(c, 16))));
        module = "mod" + letters;
        kcp = "kcp-" + id;
        target = "target-" + id;
        group = module + ".e2e.rekon.dev";
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(kcp).endMetadata().build()).create();
    }

    /** The module's manifest files at a version: 0.x keeps a ConfigMap that 1.x and later drop. */
    Map<String, String> files(String version) {
        boolean old = version.startsWith("0.");
        Map<String, String> f = new LinkedHashMap<>();
        f.put("00-namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + target + "\n");
        f.put("10-crd.yaml", """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: widgets.GROUP
                spec:
                  group: GROUP
                  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
                  scope: Namespaced
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                """.replace("GROUP", group));
        f.put("20-rbac.yaml", """
                apiVersion: v1
                kind: ServiceAccount
                metadata: {name: controller, namespace: NS}
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata: {name: controller, namespace: NS}
                rules:
                - {apiGroups: [""], resources: [RES], verbs: [get]}
                """.replace("NS", target).replace("RES", old ? "configmaps" : "secrets"));
        if (old) {
            f.put("30-config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: " + target
                    + "}\ndata: {level: info}\n");
        }
        f.put("40-deployment.yaml", """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: controller, namespace: NS}
                spec:
                  selector: {matchLabels: {app: controller}}
                  template:
                    metadata: {labels: {app: controller}}
                    spec:
                      serviceAccountName: controller
                      containers:
                      - {name: controller, image: "registry.example/widgets:VERSION"}
                """.replace("NS", target).replace("VERSION", version));
        f.putAll(extraFiles.getOrDefault(version, Map.of()));
        return f;
    }

    /** Publishes a version: its component in the registry, its ModuleTemplate; {@code tamper} swaps the blob after. */
    void publish(String version, boolean tamper) throws Exception {
        byte[] tar = ManifestFixtures.tar(files(version));
        String baseUrl = LocalRegistry.get().hostPort();
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, baseUrl, tar);
        ((ObjectNode) d.get("component")).put("name", "e2e.rekon.dev/module/" + module);
        new OcmRegistry(baseUrl, null).pushComponent(d, tamper ? ManifestFixtures.tar(files("9.9.9")) : tar);
        ObjectNode t = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "ModuleTemplate");
        t.putObject("metadata").put("name", module + "-" + version).put("namespace", kcp);
        ObjectNode spec = t.putObject("spec").put("moduleName", module).put("version", version);
        spec.set("data", new YAMLMapper().readTree("apiVersion: " + group + "/v1\nkind: Widget\nmetadata: {name: default,"
                + " namespace: " + target + "}\nspec: {size: 1}\n"));
        spec.set("descriptor", d);
        create(t);
    }

    void channel(String version) {
        ObjectNode m = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "ModuleReleaseMeta");
        m.putObject("metadata").put("name", module).put("namespace", kcp);
        ObjectNode spec = m.putObject("spec").put("moduleName", module).put("ocmComponentName", "e2e.rekon.dev/module/" + module);
        spec.putArray("channels").addObject().put("channel", "regular").put("version", version);
        admin.resource(Serialization.unmarshal(m.toString(), GenericKubernetesResource.class)).createOr(x -> x.update());
    }

    /** The Kyma {@code default} listing the modules given (none: an empty list). */
    void kyma(String... modules) {
        ObjectNode k = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "Kyma");
        k.putObject("metadata").put("name", "default").put("namespace", kcp);
        ObjectNode spec = k.putObject("spec").put("channel", "regular");
        var list = spec.putArray("modules");
        for (String m : modules) {
            list.addObject().put("name", m).put("managed", true);
        }
        admin.resource(Serialization.unmarshal(k.toString(), GenericKubernetesResource.class)).createOr(x -> x.update());
    }

    void create(ObjectNode o) {
        admin.resource(Serialization.unmarshal(o.toString(), GenericKubernetesResource.class)).create();
    }

    ValidatableResponse kymaEvent() {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.knative.apiserver.ref.update").header("ce-source", "https://apiserver")
                .header("ce-kind", "Kyma").header("ce-name", "default").header("ce-namespace", kcp)
                .contentType("application/json")
                .body(Map.of("apiVersion", KYMA, "kind", "Kyma", "name", "default", "namespace", kcp))
                .post("/").then().statusCode(200);
    }

    ValidatableResponse releaseMetaEvent() {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.knative.apiserver.resource.update").header("ce-source", "https://apiserver")
                .header("ce-kind", "ModuleReleaseMeta").header("ce-name", module).header("ce-namespace", kcp)
                .contentType("application/json")
                .body(admin.genericKubernetesResources(KYMA, "ModuleReleaseMeta").inNamespace(kcp).withName(module).get())
                .post("/").then().statusCode(200);
    }

    /** The same update in Reference mode: the event names the release meta and carries no object. */
    ValidatableResponse releaseMetaReferenceEvent() {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.knative.apiserver.ref.update").header("ce-source", "https://apiserver")
                .header("ce-kind", "ModuleReleaseMeta").header("ce-name", module).header("ce-namespace", kcp)
                .contentType("application/json")
                .body(Map.of("apiVersion", KYMA, "kind", "ModuleReleaseMeta", "name", module, "namespace", kcp))
                .post("/").then().statusCode(200);
    }

    GenericKubernetesResource object(String apiVersion, String kind, String namespace, String name) {
        var op = admin.genericKubernetesResources(apiVersion, kind);
        return (namespace == null ? op : op.inNamespace(namespace)).withName(name).get();
    }

    List<GenericKubernetesResource> labelled(String apiVersion, String kind) {
        return admin.genericKubernetesResources(apiVersion, kind).inAnyNamespace()
                .withLabel("rekon.dev/module", module).list().getItems();
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> kymaStatus() {
        return (Map<String, Object>) object(KYMA, "Kyma", kcp, "default").getAdditionalProperties().get("status");
    }
}
