package dev.rekon.bench;

import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.manifest.ManifestFixtures;
import dev.rekon.modules.manifest.OcmRegistry;
import dev.rekon.modules.ocm.TestSigning;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * A module of {@code size} objects for the lifecycle figures, published as Kyma publishes modules (its
 * raw-manifest a local blob of its OCM component in a real registry, a ModuleTemplate per version, a
 * ModuleReleaseMeta and a Kyma listing it in {@code kcp}): a Namespace, and Deployments, ServiceAccounts and
 * Services (a fifteenth each), the rest ConfigMaps. Version 1.1.0 changes every Deployment's image and drops a
 * tenth of the objects (ConfigMaps), so that its upgrade writes the changed objects plus the deletions.
 */
final class BenchModule {

    static final String KYMA = "operator.kyma-project.io/v1beta2";
    static final String V1 = "1.0.0";
    static final String V2 = "1.1.0";
    /** Every object carries it: which bench module it belongs to, whoever applied it. */
    static final String LABEL = "bench.rekon.dev/part-of";

    final String module;
    final String kcp;
    final int size;

    BenchModule(String module, String kcp, int size) {
        this.module = module;
        this.kcp = kcp;
        this.size = size;
    }

    int deployments() {
        return size / 15;
    }

    int dropped() {
        return size / 10;
    }

    /** The manifest of a version in {@code namespace}, one YAML stream. */
    String yaml(String namespace, String version) {
        int kinds = deployments();
        int configMaps = size - 1 - 3 * kinds - (version.equals(V2) ? dropped() : 0);
        StringBuilder y = new StringBuilder(doc("v1", "Namespace", null, namespace, ""));
        for (int i = 0; i < kinds; i++) {
            y.append(doc("apps/v1", "Deployment", namespace, "app-" + i, """
                    spec:
                      selector: {matchLabels: {app: app-%1$d}}
                      template:
                        metadata: {labels: {app: app-%1$d}}
                        spec:
                          containers: [{name: app, image: "registry.example/app:%2$s"}]
                    """.formatted(i, version)));
            y.append(doc("v1", "ServiceAccount", namespace, "sa-" + i, ""));
            // protocol spelled out: the v1.20.2 server refuses a server-side apply of Service ports without it (a key
            // of that list, without a default there), as published manifests that support old servers write it.
            y.append(doc("v1", "Service", namespace, "svc-" + i, "spec:\n  selector: {app: app-" + i + "}\n"
                    + "  ports: [{port: 80, protocol: TCP}]\n"));
        }
        for (int i = 0; i < configMaps; i++) {
            y.append(doc("v1", "ConfigMap", namespace, "config-" + i, "data: {index: \"" + i + "\"}\n"));
        }
        return y.toString();
    }

    /** The objects {@link #V2} drops, as a manifest (kubectl cannot prune what it applied server-side). */
    String dropped(String namespace) {
        int kept = size - 1 - 3 * deployments() - dropped();
        StringBuilder y = new StringBuilder();
        for (int i = kept; i < kept + dropped(); i++) {
            y.append(doc("v1", "ConfigMap", namespace, "config-" + i, ""));
        }
        return y.toString();
    }

    private String doc(String apiVersion, String kind, String namespace, String name, String rest) {
        return "---\napiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n"
                + (namespace == null ? "" : "  namespace: " + namespace + "\n") + "  labels: {" + LABEL + ": "
                + module + "}\n" + rest;
    }

    /** Namespace {@code kcp}, both versions published into {@code target}, channel {@code regular} on {@link #V1}. */
    void prepare(KubernetesClient admin, String registry, String target) throws Exception {
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(kcp).endMetadata().build())
                .serverSideApply();
        publish(admin, registry, target, V1);
        publish(admin, registry, target, V2);
        channel(admin, V1);
    }

    /** Pushes the version's component to the registry and creates its ModuleTemplate. */
    void publish(KubernetesClient admin, String registry, String namespace, String version) throws Exception {
        byte[] tar = ManifestFixtures.tar(Map.of("manifest.yaml", yaml(namespace, version)));
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, registry, tar);
        ((ObjectNode) d.get("component")).put("name", "bench.rekon.dev/module/" + module);
        new OcmRegistry(registry, null).pushComponent(d, tar);
        ObjectNode t = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "ModuleTemplate");
        t.putObject("metadata").put("name", module + "-" + version).put("namespace", kcp);
        t.putObject("spec").put("moduleName", module).put("version", version).set("descriptor", d);
        apply(admin, t);
    }

    /** The ModuleReleaseMeta offering {@code version} on channel {@code regular}. */
    ObjectNode channel(KubernetesClient admin, String version) {
        ObjectNode m = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "ModuleReleaseMeta");
        m.putObject("metadata").put("name", module).put("namespace", kcp);
        m.putObject("spec").put("moduleName", module).put("ocmComponentName", "bench.rekon.dev/module/" + module)
                .putArray("channels").addObject().put("channel", "regular").put("version", version);
        return apply(admin, m);
    }

    /** The Kyma {@code default} of {@code kcp}, listing the module (or, not {@code listed}, no module). */
    void kyma(KubernetesClient admin, boolean listed) {
        ObjectNode k = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "Kyma");
        k.putObject("metadata").put("name", "default").put("namespace", kcp);
        var modules = k.putObject("spec").put("channel", "regular").putArray("modules");
        if (listed) {
            modules.addObject().put("name", module);
        }
        apply(admin, k);
    }

    /** The ApiServerSource event of a change of that Kyma, as its Trigger delivers it. */
    Poster.Answer kymaEvent(Poster poster) {
        return poster.event("dev.knative.apiserver.ref.update", Map.of("kind", "Kyma", "name", "default", "namespace",
                kcp), "{\"apiVersion\":\"" + KYMA + "\",\"kind\":\"Kyma\",\"name\":\"default\",\"namespace\":\""
                + kcp + "\"}");
    }

    private static ObjectNode apply(KubernetesClient admin, ObjectNode o) {
        GenericKubernetesResource r = Serialization.unmarshal(o.toString(), GenericKubernetesResource.class);
        return TestSigning.JSON.valueToTree(admin.resource(r).createOr(x -> x.update()));
    }
}
