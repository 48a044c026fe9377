package dev.rekon.modules.lifecycle.apply;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;
import dev.rekon.modules.lifecycle.KymaModule;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.plan.KymaStatusUpdate;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.testing.Failures;

/**
 * Rekon's {@link LifecycleGateway} over maps, for service tables: objects by identity, inventories, Kymas and
 * Kyma's release objects. Writes are checked as the apiserver checks them (an inventory or Kyma status written
 * from a stale resourceVersion is a 409) and logged in order: {@code apply Kind ns/name}, {@code delete ...},
 * {@code inventory <n> objects at <version>}, {@code forget inventory}, {@code status Kyma ns/name <state>}.
 * Failures can be scripted per call ({@link #failNext}) or for all calls ({@link #down}, an outage).
 */
public final class InMemoryLifecycle implements LifecycleGateway {

    static final ObjectMapper JSON = new ObjectMapper();

    public final Map<String, ObjectNode> objects = new LinkedHashMap<>();
    public final Map<KymaModule, Inventory> inventories = new LinkedHashMap<>();
    public final Map<String, ObjectNode> kymas = new LinkedHashMap<>();
    public final List<JsonNode> kymaObjects = new ArrayList<>();
    public final List<String> writes = new ArrayList<>();
    /** Namespaces Rekon's role may not read in: a read of Kymas or inventories there is refused (403), as RBAC does. */
    public final java.util.Set<String> forbidden = new java.util.HashSet<>();
    /** Every call in order, failed or not: {@code read}, {@code apply}, {@code delete}, {@code inventory}, {@code status}. */
    public final List<String> calls = new ArrayList<>();
    /** While set, the apiserver answers every call with 503, as in an outage. */
    public boolean down;
    /** While set, every write is answered with 503 (reads still answer). */
    public boolean writesDown;
    private final Map<String, java.util.Deque<RuntimeException>> failNext = new java.util.HashMap<>();
    private long version = 100;

    /** The writer of plans over this gateway, recording Events. */
    public LifecycleWrites writes(EventRecorder events) {
        LifecycleWrites w = new LifecycleWrites();
        w.gateway = this;
        w.events = events;
        return w;
    }

    /** The next call of {@code operation} fails so, before it acts (each scripted failure once, in order). */
    public InMemoryLifecycle failNext(String operation, RuntimeException failure) {
        failNext.computeIfAbsent(operation, k -> new java.util.ArrayDeque<>()).add(failure);
        return this;
    }

    private void call(String operation, String what) {
        calls.add(operation);
        if (down || writesDown && !operation.equals("read")) {
            throw Failures.unavailable(operation + " " + what);
        }
        RuntimeException scripted = Optional.ofNullable(failNext.get(operation)).map(java.util.Deque::poll).orElse(null);
        if (scripted != null) {
            throw scripted;
        }
    }

    /** Puts an object as someone (or a module, by its label) created it, without logging a write. */
    public InMemoryLifecycle put(ObjectNode object) {
        ObjectNode o = object.deepCopy();
        o.with("metadata").put("resourceVersion", String.valueOf(++version));
        objects.put(Identity.key(ManifestObjects.ref(o)), o);
        return this;
    }

    /** Puts (or replaces) a Kyma, keeping the status it has. */
    public InMemoryLifecycle kyma(ObjectNode kyma) {
        String key = kyma.at("/metadata/namespace").asText() + "/" + kyma.at("/metadata/name").asText();
        ObjectNode o = kyma.deepCopy();
        Optional.ofNullable(kymas.get(key)).map(k -> k.get("status")).ifPresent(s -> o.set("status", s));
        o.with("metadata").put("resourceVersion", String.valueOf(++version));
        kymas.put(key, o);
        return this;
    }

    private void forbid(String namespace, String what) {
        if (namespace != null && forbidden.contains(namespace)) {
            throw Failures.refused("reading " + what, 403);
        }
    }

    @Override
    public Optional<KymaView> kyma(String namespace, String name) {
        call("read", "Kyma " + namespace + "/" + name);
        forbid(namespace, "Kyma " + namespace + "/" + name);
        return Optional.ofNullable(kymas.get(namespace + "/" + name)).map(KymaView::of);
    }

    @Override
    public List<KymaView> kymas(String namespace) {
        call("read", "Kymas in " + namespace);
        forbid(namespace, "Kymas in " + namespace);
        return kymas.values().stream().filter(k -> namespace == null || namespace.equals(k.at("/metadata/namespace")
                .asText())).map(KymaView::of).toList();
    }

    @Override
    public <V> List<V> kymaObjects(KymaKind<V> kind, String namespace) {
        call("read", kind.kind() + "s in " + namespace);
        return kymaObjects.stream().filter(o -> kind.kind().equals(o.path("kind").asText())
                && namespace.equals(o.at("/metadata/namespace").asText())).map(kind.view()).toList();
    }

    @Override
    public Optional<Inventory> inventory(KymaModule key) {
        call("read", "the inventory of " + key);
        return Optional.ofNullable(inventories.get(key));
    }

    @Override
    public List<String> inventoried(String namespace, String kyma) {
        call("read", "the inventories of Kyma " + namespace + "/" + kyma);
        forbid(namespace, "the inventories of Kyma " + namespace + "/" + kyma);
        return inventories.keySet().stream().filter(k -> k.namespace().equals(namespace) && k.kyma().equals(kyma))
                .map(KymaModule::module).toList();
    }

    @Override
    public String writeInventory(KymaModule key, Inventory inventory) {
        call("inventory", "the inventory of " + key);
        Inventory stored = inventories.get(key);
        if (!Objects.equals(stored == null ? null : stored.resourceVersion(), inventory.resourceVersion())) {
            throw Failures.conflict("writing the inventory of " + key);
        }
        String rv = String.valueOf(++version);
        inventories.put(key, inventory.withResourceVersion(rv));
        writes.add("inventory " + inventory.objects().size() + " objects at "
                + (inventory.version() == null ? "-" : inventory.version()));
        return rv;
    }

    @Override
    public void deleteInventory(KymaModule key) {
        call("inventory", "the inventory of " + key);
        inventories.remove(key);
        writes.add("forget inventory");
    }

    @Override
    public Map<String, LiveObject> live(String module, Collection<ObjectRef> refs) {
        call("read", "the objects of module " + module);
        Map<String, LiveObject> live = new LinkedHashMap<>();
        for (ObjectRef ref : refs) {
            ObjectNode o = objects.get(Identity.key(ref));
            if (o != null) {
                String label = o.at("/metadata/labels").path(ModuleDeployment.MODULE_LABEL).asText(null);
                live.put(Identity.key(ref), new LiveObject(ManifestObjects.ref(o), label, o.deepCopy()));
            }
        }
        return live;
    }

    @Override
    public List<ObjectRef> customResources(ObjectRef crd) {
        call("read", "the resources of " + crd);
        ObjectNode definition = objects.get(Identity.key(crd));
        String group = definition == null ? null : definition.at("/spec/group").asText(null);
        return objects.values().stream().map(ManifestObjects::ref)
                .filter(r -> group != null && group.equals(Identity.group(r.apiVersion()))).toList();
    }

    @Override
    public void apply(ObjectNode object) {
        ObjectRef ref = ManifestObjects.ref(object);
        call("apply", ref.toString());
        ObjectNode live = objects.get(Identity.key(ref));
        ObjectNode merged = live == null ? object.deepCopy() : merge(live.deepCopy(), object);
        merged.with("metadata").put("resourceVersion", String.valueOf(++version));
        objects.put(Identity.key(ref), merged);
        writes.add("apply " + ref);
    }

    /** Server-side apply in short: the applied fields win, the fields others set stay. */
    private static ObjectNode merge(ObjectNode live, ObjectNode applied) {
        applied.fields().forEachRemaining(f -> {
            JsonNode mine = live.get(f.getKey());
            if (mine instanceof ObjectNode m && f.getValue() instanceof ObjectNode a) {
                merge(m, a);
            } else {
                live.set(f.getKey(), f.getValue().deepCopy());
            }
        });
        return live;
    }

    @Override
    public void awaitEstablished(ObjectRef crd) {
        // A CRD held in a map serves its kind at once.
    }

    @Override
    public void delete(LiveObject seen) {
        ObjectRef ref = seen.ref();
        call("delete", ref.toString());
        ObjectNode stored = objects.get(Identity.key(ref));
        String version = stored == null ? null : stored.at("/metadata/resourceVersion").asText(null);
        if (version != null && seen.resourceVersion() != null && !version.equals(seen.resourceVersion())) {
            throw Failures.conflict("deleting " + ref + ": it changed since it was read");
        }
        objects.remove(Identity.key(ref));
        writes.add("delete " + ref);
    }

    @Override
    public void writeKymaStatus(KymaStatusUpdate update) {
        KymaView kyma = update.kyma();
        String state = update.state().name();
        ArrayNode modules = KymaStatusBody.modules(update);
        call("status", "the status of Kyma " + kyma.namespace() + "/" + kyma.name());
        ObjectNode stored = kymas.get(kyma.namespace() + "/" + kyma.name());
        if (stored == null || !stored.at("/metadata/resourceVersion").asText().equals(kyma.resourceVersion())) {
            throw Failures.conflict("writing the status of Kyma " + kyma.namespace() + "/" + kyma.name());
        }
        ArrayNode defaulted = modules.deepCopy();
        // The Kyma CRD defaults it, so the apiserver stores it whether or not the writer sent it.
        defaulted.forEach(m -> ((ObjectNode) m).putIfAbsent("maintenance", JSON.getNodeFactory().booleanNode(false)));
        stored.putObject("status").put("state", state).set("modules", defaulted);
        stored.with("metadata").put("resourceVersion", String.valueOf(++version));
        writes.add("status Kyma " + kyma.namespace() + "/" + kyma.name() + " " + state);
    }
}
