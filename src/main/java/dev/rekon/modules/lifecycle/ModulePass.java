package dev.rekon.modules.lifecycle;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway;

/**
 * What one resync pass of the module lifecycle reads of the cluster once, for every module it concerns: the
 * modules' inventories (one list in its namespace, or every namespace) and, for each kind the modules name, every
 * object of it as metadata (one list per kind), so that a pass reads as much for a thousand modules as for one.
 * A module's objects are then judged by that metadata: one the list lacks does not exist (it is applied again); one
 * at the resourceVersion its last attempt left is as that attempt read it ({@link HeldModule}); any other is read
 * as before. A list the gateway cannot make (refused, a kind not served) leaves its reads to each module, as
 * without a pass. Kept by the pass's keys only, so it goes with the pass; an attempt after a lost race reads live.
 */
public final class ModulePass {

    private final LifecycleGateway gateway;
    private final String namespace;
    private final Once<Optional<Map<KymaModule, Inventory>>> inventories;
    private final ConcurrentHashMap<String, Once<Optional<Map<String, LiveObject>>>> kinds = new ConcurrentHashMap<>();

    /** A pass over the modules of the Kymas in {@code namespace} (null: every namespace). */
    ModulePass(LifecycleGateway gateway, String namespace) {
        this.gateway = gateway;
        this.namespace = namespace;
        this.inventories = new Once<>(() -> gateway.inventories(namespace));
    }

    /** Every inventory of the pass's namespace, by module; empty when they could not be listed together. */
    Optional<Map<KymaModule, Inventory>> inventories() {
        return inventories.get();
    }

    /** The module's inventory as the pass listed it, or as the apiserver has it when the pass could not list. */
    Optional<Inventory> inventory(KymaModule key) {
        return inventories().map(all -> Optional.ofNullable(all.get(key.named())))
                .orElseGet(() -> gateway.inventory(key));
    }

    /** The modules of one Kyma with an inventory ({@link LifecycleGateway#inventoried}), from the pass's list. */
    List<String> inventoried(String ns, String kyma) {
        return inventories().map(all -> all.keySet().stream()
                .filter(k -> k.namespace().equals(ns) && k.kyma().equals(kyma)).map(KymaModule::module).toList())
                .orElseGet(() -> gateway.inventoried(ns, kyma));
    }

    /**
     * The objects among {@code refs} that exist, by {@link Identity#key}: judged by the pass's metadata lists and
     * the module's last attempt ({@code held}); those neither answers for are read by {@code read}.
     */
    Map<String, LiveObject> live(Collection<ObjectRef> refs, HeldModule held,
            Function<Collection<ObjectRef>, Map<String, LiveObject>> read) {
        Map<String, LiveObject> out = new HashMap<>();
        List<ObjectRef> unknown = new ArrayList<>();
        for (ObjectRef ref : refs) {
            Optional<Map<String, LiveObject>> listed = listed(ref);
            if (listed.isEmpty()) {
                unknown.add(ref);
                continue;
            }
            String key = Identity.key(ref);
            LiveObject meta = listed.get().get(key);
            if (meta == null) {
                continue;
            }
            LiveObject last = held.live().get(key);
            if (last != null && last.resourceVersion() != null && last.resourceVersion().equals(meta.resourceVersion())) {
                out.put(key, new LiveObject(ref, meta.owner(), last.object()));
            } else {
                unknown.add(ref);
            }
        }
        if (!unknown.isEmpty()) {
            out.putAll(read.apply(unknown));
        }
        return out;
    }

    private Optional<Map<String, LiveObject>> listed(ObjectRef ref) {
        return kinds.computeIfAbsent(ref.apiVersion() + "|" + ref.kind(), k -> new Once<>(() -> gateway
                .listed(new ObjectRef(ref.apiVersion(), ref.kind(), null, ""))
                .map(all -> {
                    Map<String, LiveObject> byKey = new HashMap<>();
                    all.forEach(o -> byKey.put(Identity.key(o.ref()), o));
                    return byKey;
                }))).get();
    }

    @Override
    public String toString() {
        return "pass over " + (namespace == null ? "every namespace" : namespace);
    }

    /** A read made once, by the first that asks; the others wait for it. A failed read is tried again. */
    private static final class Once<T> {
        private final Supplier<T> read;
        private T value;
        private boolean done;

        Once(Supplier<T> read) {
            this.read = read;
        }

        synchronized T get() {
            if (!done) {
                value = read.get();
                done = true;
            }
            return value;
        }
    }
}
