package dev.rekon.modules.lifecycle;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.manifests.plan.WriteResult;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.pipeline.LastPlans;

/**
 * What the page plans a module from besides the watches, since no watch holds a module's inventory or objects:
 * the cluster as the module's last attempt on this replica read it, as that attempt's plan left it once carried
 * out in full (what it applied as applied, what it deleted gone, its inventory as recorded or dropped). The loop
 * keeps it as what the area remembers of its last plan ({@link LastPlans}), made once the plan is carried out
 * ({@link KymaModuleReconciler#rememberCarriedOut}); a hand change to one of its objects since is not in it, and the
 * next pass reads it.
 *
 * @param key       the module (without a pass), or null before any attempt
 * @param inventory the module's inventory, or null when it has none
 * @param live      the objects of the release and the inventory that exist, by {@link Identity#key}, without their
 *                  managedFields ({@link LiveObject#lean})
 * @param blocking  custom resources that hold the module's uninstall
 */
record HeldModule(KymaModule key, Inventory inventory, Map<String, LiveObject> live, List<ObjectRef> blocking) {

    /** Before any attempt of this replica: nothing installed is known. */
    static final HeldModule NONE = new HeldModule(null, null, Map.of(), List.of());

    HeldModule {
        Map<String, LiveObject> lean = new HashMap<>();
        live.forEach((k, o) -> lean.put(k, o.lean()));
        live = Map.copyOf(lean);
        blocking = List.copyOf(blocking);
    }

    static HeldModule of(LifecycleViews v) {
        return new HeldModule(v.key().named(), v.inventory(), v.live(), v.blocking());
    }

    /**
     * As the plan, carried out in full, leaves the module: an object applied is as applied, at the uid and
     * resourceVersion its apply answered ({@code applied}, by {@link Identity#key}) when known, so that a pass
     * that lists it unchanged since takes it as it is instead of reading it again.
     */
    HeldModule after(LifecyclePlan p, Map<String, WriteResult.Applied> applied) {
        Map<String, LiveObject> out = new HashMap<>(live);
        p.deletes().forEach(d -> out.remove(Identity.key(d.ref())));
        for (ObjectNode o : p.apply()) {
            ObjectRef ref = ManifestObjects.ref(o);
            String key = Identity.key(ref);
            out.put(key, new LiveObject(ref, p.key().module(), stamped(o, applied.get(key))));
        }
        Inventory recorded = p.forget() ? null : p.inventory() != null ? p.inventory()
                : p.writeAhead() != null ? p.writeAhead() : inventory;
        return new HeldModule(key, recorded, out, p.forget() ? List.of() : blocking);
    }

    private static ObjectNode stamped(ObjectNode o, WriteResult.Applied applied) {
        if (applied == null || applied.resourceVersion() == null) {
            return o;
        }
        ObjectNode copy = o.deepCopy();
        ObjectNode meta = copy.get("metadata") instanceof ObjectNode m ? m : copy.putObject("metadata");
        meta.put("resourceVersion", applied.resourceVersion());
        if (applied.uid() != null) {
            meta.put("uid", applied.uid());
        }
        return copy;
    }
}
