package dev.rekon.modules.lifecycle.apply;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.ApiKinds;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.TreeCalls;
import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.ForbiddenException;
import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.apply.KubeManifestObjects;
import dev.rekon.manifests.plan.WriteResult;
import dev.rekon.modules.lifecycle.KymaModule;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.manifests.inventory.InventoryCodec;
import dev.rekon.modules.lifecycle.plan.KymaStatusUpdate;
import dev.rekon.modules.lifecycle.watch.KymaFacet;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.watch.ReleaseFacets;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The {@link LifecycleGateway} on the Kubernetes API. A module's inventory is the ConfigMap
 * {@code rekon-module-<kyma>-<module>} in the Kyma's namespace (labelled with the Kyma and the module), written
 * with its resourceVersion as guard; the Kyma's status is a JSON merge patch of its status subresource carrying
 * the resourceVersion read. Objects are read and written by {@link KubeManifestObjects}. Kymas, ModuleTemplates and
 * ModuleReleaseMetas are read from their one watch each ({@link SharedWatches}) unless a read asks for the apiserver;
 * what this process read or wrote of a Kyma is told to its watch, so a lagging watch never answers older.
 */
@ApplicationScoped
public class KubeLifecycleGateway implements LifecycleGateway {

    static final String KYMA_LABEL = "rekon.dev/kyma";

    @Inject
    KubernetesClient client;

    @Inject
    KubeApplyIdentity identity;

    @Inject
    ApiKinds kinds;

    @Inject
    ObjectMapper json;

    @Inject
    TreeCalls calls;

    @Inject
    SharedWatches watches;

    @Inject
    KymaFacet kymaFacet;

    @Inject
    ReleaseFacets.ReleaseMetas metas;

    @Inject
    ReleaseFacets.Templates templates;

    @Override
    public boolean serves(String apiVersion, String kind) {
        return kinds.kind(apiVersion, kind).isPresent();
    }

    @Override
    public boolean serves(String apiVersion, String kind, Read read) {
        return read == Read.HELD ? kinds.servedAsLastRead(apiVersion, kind) : serves(apiVersion, kind);
    }

    @Override
    public Optional<KymaView> kyma(String namespace, String name) {
        ObjectRef ref = new ObjectRef(KymaModule.KYMA_API_VERSION, "Kyma", namespace, name);
        Optional<KymaView> read = Optional.ofNullable(KubeErrors.call(ref, "read " + ref, () -> client
                .genericKubernetesResources(KymaModule.KYMA_API_VERSION, "Kyma").inNamespace(namespace).withName(name)
                .get())).map(k -> KymaView.of(json.valueToTree(k)));
        // Gone here but maybe still in the watch: until it catches up, loads read the apiserver too.
        kymas().seen(namespace, name, read.map(KymaView::resourceVersion).orElse(null));
        return read;
    }

    @Override
    public Optional<KymaView> kyma(String namespace, String name, Read read) {
        return switch (read) {
            case LIVE -> kyma(namespace, name);
            // A Kyma the watch does not hold may be one it has not delivered yet (an event can come first): read.
            case CACHED -> kymas().latest(namespace, List.of(name)).flatMap(l -> l.stream().findFirst())
                    .or(() -> kyma(namespace, name));
            case HELD -> kymas().latest(namespace, List.of(name)).map(l -> l.stream().findFirst())
                    .orElseGet(() -> kymas().cached(namespace, List.of(name)).flatMap(l -> l.stream().findFirst())
                            .map(Versioned::view));
        };
    }

    @Override
    public void seen(ObjectRef ref, String resourceVersion) {
        switch (ref.kind()) {
            case "Kyma" -> kymas().seen(ref.namespace(), ref.name(), resourceVersion);
            case KymaModules.RELEASE_META -> watches.of(metas).seen(ref.namespace(), ref.name(), resourceVersion);
            case KymaModules.TEMPLATE -> watches.of(templates).seen(ref.namespace(), ref.name(), resourceVersion);
            default -> {
            }
        }
    }

    @Override
    public List<KymaView> kymas(String namespace) {
        return kymas().latestOrListed(namespace, null);
    }

    @Override
    public List<KymaView> kymas(String namespace, Read read) {
        return read != Read.HELD ? kymas(namespace) : kymas().cached(namespace, null)
                .map(l -> l.stream().map(Versioned::view).toList()).orElse(List.of());
    }

    private FacetViews<KymaView> kymas() {
        return watches.of(kymaFacet);
    }

    @Override
    public <V> List<V> kymaObjects(KymaKind<V> kind, String namespace) {
        return kymaObjects(kind.kind(), namespace).stream().map(kind.view()).toList();
    }

    @Override
    public <V> List<V> kymaObjects(KymaKind<V> kind, String namespace, Read read) {
        FacetViews<V> views = watches.of(facet(kind));
        return switch (read) {
            case LIVE -> kymaObjects(kind, namespace);
            case CACHED -> views.latestOrListed(namespace, null);
            case HELD -> views.cached(namespace, null).map(l -> l.stream().map(Versioned::view).toList())
                    .orElse(List.of());
        };
    }

    @SuppressWarnings("unchecked")
    private <V> ReleaseFacets.Kyma<V> facet(KymaKind<V> kind) {
        return (ReleaseFacets.Kyma<V>) (kind == KymaKind.TEMPLATE ? templates : metas);
    }

    private List<JsonNode> kymaObjects(String kind, String namespace) {
        return KubeErrors.call("list " + kind + " in " + namespace, () -> client.genericKubernetesResources(
                KymaModules.API_VERSION, kind).inNamespace(namespace).list().getItems())
                .stream().map(o -> (JsonNode) json.valueToTree(o)).toList();
    }

    @Override
    public Optional<Inventory> inventory(KymaModule key) {
        ConfigMap cm = KubeErrors.call(inventoryRef(key), "read the inventory of " + key,
                () -> client.configMaps().inNamespace(key.namespace()).withName(name(key)).get());
        if (cm == null || cm.getData() == null || !cm.getData().containsKey(InventoryCodec.KEY)) {
            return Optional.empty();
        }
        return Optional.of(InventoryCodec.read(cm.getData().get(InventoryCodec.KEY), cm.getMetadata().getResourceVersion()));
    }

    @Override
    public Optional<Map<KymaModule, Inventory>> inventories(String namespace) {
        List<ConfigMap> items;
        try {
            items = KubeErrors.call("list module inventories" + (namespace == null ? "" : " in " + namespace),
                    () -> (namespace == null ? client.configMaps().inAnyNamespace().withLabel(KYMA_LABEL)
                            : client.configMaps().inNamespace(namespace).withLabel(KYMA_LABEL))
                            .withLabel(ModuleDeployment.MODULE_LABEL).list().getItems());
        } catch (ForbiddenException e) {
            return Optional.empty();
        }
        Map<KymaModule, Inventory> out = new HashMap<>();
        for (ConfigMap cm : items) {
            Map<String, String> labels = cm.getMetadata().getLabels();
            KymaModule key = new KymaModule(cm.getMetadata().getNamespace(), labels.get(KYMA_LABEL),
                    labels.get(ModuleDeployment.MODULE_LABEL));
            if (cm.getData() != null && cm.getData().containsKey(InventoryCodec.KEY) && name(key).equals(
                    cm.getMetadata().getName())) {
                out.put(key, InventoryCodec.read(cm.getData().get(InventoryCodec.KEY),
                        cm.getMetadata().getResourceVersion()));
            }
        }
        return Optional.of(out);
    }

    @Override
    public List<String> inventoried(String namespace, String kyma) {
        return KubeErrors.call("list module inventories of Kyma " + namespace + "/" + kyma, () -> client.configMaps()
                .inNamespace(namespace).withLabel(KYMA_LABEL, kyma).withLabel(ModuleDeployment.MODULE_LABEL).list()
                .getItems()).stream().map(c -> c.getMetadata().getLabels().get(ModuleDeployment.MODULE_LABEL)).toList();
    }

    @Override
    public String writeInventory(KymaModule key, Inventory inventory) {
        ConfigMap cm = new ConfigMapBuilder().withNewMetadata().withName(name(key)).withNamespace(key.namespace())
                .withResourceVersion(inventory.resourceVersion())
                .addToLabels(Map.of(ManifestObjects.MANAGED_BY, "rekon", ModuleDeployment.MODULE_LABEL, key.module(),
                        KYMA_LABEL, key.kyma()))
                .endMetadata().addToData(InventoryCodec.KEY, InventoryCodec.write(inventory)).build();
        var op = client.configMaps().inNamespace(key.namespace()).resource(cm);
        ConfigMap written = KubeErrors.call(inventoryRef(key), "write the inventory of " + key,
                () -> inventory.resourceVersion() == null ? op.create() : op.update());
        return written.getMetadata().getResourceVersion();
    }

    @Override
    public void deleteInventory(KymaModule key) {
        KubeErrors.run("delete the inventory of " + key,
                () -> client.configMaps().inNamespace(key.namespace()).withName(name(key)).delete());
    }

    /** The module's objects, read and written as the apply identity. */
    private KubeManifestObjects objects() {
        return new KubeManifestObjects(identity.writer(), json, ModuleDeployment.MODULE_LABEL, kinds);
    }

    @Override
    public Map<String, LiveObject> live(String module, Collection<ObjectRef> refs) {
        return objects().live(module, refs);
    }

    @Override
    public Optional<List<LiveObject>> listed(ObjectRef kind) {
        if (!serves(kind.apiVersion(), kind.kind())) {
            return Optional.empty();
        }
        try {
            return Optional.of(objects().metadata(kind).stream().map(LiveObject::lean).toList());
        } catch (ForbiddenException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<ObjectRef> customResources(ObjectRef crd) {
        return objects().customResources(crd);
    }

    @Override
    public void apply(ObjectNode object) {
        objects().apply(object);
    }

    @Override
    public WriteResult.Applied applied(ObjectNode object) {
        return objects().applied(object);
    }

    @Override
    public void awaitEstablished(ObjectRef crd) {
        objects().awaitEstablished(crd);
    }

    @Override
    public void delete(LiveObject object) {
        objects().delete(object);
    }

    @Override
    public void writeKymaStatus(KymaStatusUpdate update) {
        KymaView kyma = update.kyma();
        ObjectNode patch = KymaStatusBody.patch(update);
        ObjectRef ref = new ObjectRef(KymaModule.KYMA_API_VERSION, "Kyma", kyma.namespace(), kyma.name());
        KymaView after = KymaView.of(calls.mergePatch(ref, "write the status of " + ref, TreeCalls.path(
                KymaModule.KYMA_API_VERSION, "kymas", kyma.namespace(), kyma.name()) + "/status", patch,
                kyma.resourceVersion()));
        // The next module of this Kyma plans from the status just written, not the watch's older one.
        kymas().wrote(after.namespace(), after.name(), after.resourceVersion(), after);
    }

    static String name(KymaModule key) {
        return "rekon-module-" + key.kyma() + "-" + key.module();
    }

    private static ObjectRef inventoryRef(KymaModule key) {
        return new ObjectRef("v1", "ConfigMap", key.namespace(), name(key));
    }
}
