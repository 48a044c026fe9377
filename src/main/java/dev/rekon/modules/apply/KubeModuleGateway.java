package dev.rekon.modules.apply;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.TreeCalls;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.NotFoundException;
import dev.rekon.core.RekonConfig;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.watch.ModulePushIndex;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The {@link ModuleGateway} on the Kubernetes API: the module's Deployments by label, in the namespaces Rekon
 * may act in; Kyma's module objects; strategic-merge patches guarded by the resourceVersion they were planned
 * against, with field manager {@code rekon}. Failures are sorted by {@link KubeErrors}: a lost race is a conflict.
 */
@ApplicationScoped
public class KubeModuleGateway implements ModuleGateway {

    /** Deployments a module's manifest installed belong to the module lifecycle, not to the image swap. */
    private static final String LIFECYCLE = ManifestObjects.MANAGED_BY;

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper json;

    @Inject
    RekonConfig config;

    @Inject
    TreeCalls calls;

    @Inject
    ModulePushIndex index;

    @Override
    public List<ModuleDeployment> deployments(String module, boolean fresh) {
        Optional<List<ModuleDeployment>> watched = fresh ? Optional.empty() : index.swapped(module);
        return watched.isPresent() ? watched.get() : listed(module);
    }

    private List<ModuleDeployment> listed(String module) {
        return call("list Deployments of module " + module, () -> policy().across(
                ns -> client.apps().deployments().inNamespace(ns).withLabel(ModuleDeployment.MODULE_LABEL, module)
                        .withoutLabel(LIFECYCLE, "rekon").list().getItems(),
                () -> client.apps().deployments().inAnyNamespace().withLabel(ModuleDeployment.MODULE_LABEL, module)
                        .withoutLabel(LIFECYCLE, "rekon").list().getItems())
                .stream().map(KubeModuleDeployments::view).toList());
    }

    @Override
    public List<ModuleDeployment> allModuleDeployments() {
        return call("list module Deployments", () -> policy().across(
                ns -> client.apps().deployments().inNamespace(ns).withLabel(ModuleDeployment.MODULE_LABEL)
                        .withoutLabel(LIFECYCLE, "rekon").list().getItems(),
                () -> client.apps().deployments().inAnyNamespace().withLabel(ModuleDeployment.MODULE_LABEL)
                        .withoutLabel(LIFECYCLE, "rekon").list().getItems())
                .stream().map(KubeModuleDeployments::view).toList());
    }

    @Override
    public <V> Optional<V> read(KymaKind<V> kind, String namespace, String name) {
        return read(kind.kind(), namespace, name).map(kind.view());
    }

    @Override
    public <V> List<V> list(KymaKind<V> kind, String namespace) {
        return list(kind.kind(), namespace).stream().map(kind.view()).toList();
    }

    private Optional<JsonNode> read(String kind, String namespace, String name) {
        return call("read " + kind + " " + namespace + "/" + name, () -> Optional.ofNullable(
                client.genericKubernetesResources(KymaModules.API_VERSION, kind).inNamespace(namespace)
                        .withName(name).get()).map(r -> (JsonNode) json.valueToTree(r)));
    }

    private List<JsonNode> list(String kind, String namespace) {
        try {
            return call("list " + kind, () -> {
                var op = client.genericKubernetesResources(KymaModules.API_VERSION, kind);
                // Kyma's objects are inputs, kept in its own namespace (kcp-system), not targets: read everywhere.
                List<GenericKubernetesResource> items = namespace == null ? op.inAnyNamespace().list().getItems()
                        : op.inNamespace(namespace).list().getItems();
                return items.stream().map(r -> (JsonNode) json.valueToTree(r)).toList();
            });
        } catch (NotFoundException e) {
            return List.of(); // Kyma's CRDs are not installed: no module objects exist
        }
    }

    @Override
    public void patch(DeploymentPatch p) {
        String body = body(p).toString();
        JsonNode written = KubeErrors.call("patching " + p.ref() + " (planned at resourceVersion "
                + p.resourceVersion() + ")", () -> calls.strategicMergePatch("/apis/apps/v1/namespaces/"
                        + p.ref().namespace() + "/deployments/" + p.ref().name(), body));
        index.wrote(KubeModuleDeployments.running(json, written));
    }

    ObjectNode body(DeploymentPatch p) {
        ObjectNode body = json.createObjectNode();
        ObjectNode meta = body.putObject("metadata").put("resourceVersion", p.resourceVersion());
        if (p.version() != null) {
            meta.with("labels").put(ModuleDeployment.VERSION_LABEL, p.version());
        }
        if (p.channel() != null) {
            meta.with("labels").put(ModuleDeployment.CHANNEL_LABEL, p.channel());
        }
        annotate(meta, ModuleDeployment.REPLICAS_ANNOTATION, p.replicasBeforeDisable());
        annotate(meta, ModuleDeployment.MANUAL_CHANGE_ANNOTATION, p.manualChange());
        if (p.appliedImages() != null) {
            meta.with("annotations").put(ModuleDeployment.APPLIED_IMAGES_ANNOTATION,
                    json.valueToTree(new TreeMap<>(p.appliedImages())).toString());
        }
        if (p.replicas() != null) {
            body.with("spec").put("replicas", p.replicas());
        }
        if (!p.images().isEmpty()) {
            var containers = body.with("spec").with("template").with("spec").putArray("containers");
            p.images().forEach((name, image) -> containers.addObject().put("name", name).put("image", image));
        }
        return body;
    }

    /** Sets the annotation; {@link DeploymentPatch#REMOVE} removes it, null leaves it. */
    private static void annotate(ObjectNode meta, String name, String value) {
        if (value == null) {
            return;
        }
        if (value.equals(DeploymentPatch.REMOVE)) {
            meta.with("annotations").putNull(name);
        } else {
            meta.with("annotations").put(name, value);
        }
    }

    NamespacePolicy policy() {
        return config.namespacePolicy();
    }

    private static <T> T call(String what, java.util.function.Supplier<T> io) {
        return KubeErrors.call(what, io);
    }
}
