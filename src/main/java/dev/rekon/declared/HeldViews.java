package dev.rekon.declared;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.plan.DeclaredViews;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.pipeline.LastPlans;

/**
 * What the page plans a DeclaredState from besides its watch and its tip, since no watch holds its objects: the
 * cluster as the DeclaredState's last attempt read it (its objects, the kinds served), as that attempt's plan left
 * it once carried out in full (what it applied as applied, what it pruned or deleted gone). The loop keeps it as
 * what the area remembers of its last plan ({@link LastPlans}), so the page costs no API call; a hand change to
 * one of its objects since is not in it, and the next pass reads it.
 *
 * @param live         the objects that exist, by {@link Identity#key}, without their managedFields ({@link LiveObject#lean})
 * @param clusterKinds the cluster-scoped kinds served, as {@code group/Kind}
 * @param unserved     the declared kinds discovery did not find
 */
record HeldViews(Map<String, LiveObject> live, Set<String> clusterKinds, Set<String> unserved) {

    HeldViews {
        Map<String, LiveObject> lean = new HashMap<>();
        live.forEach((k, o) -> lean.put(k, o.lean()));
        live = Map.copyOf(lean);
        clusterKinds = Set.copyOf(clusterKinds);
        unserved = Set.copyOf(unserved);
    }

    /** What an attempt read of the cluster (the orphan scan's lists left out: the page keeps the orphans recorded). */
    static HeldViews of(DeclaredViews v) {
        return new HeldViews(v.live(), v.clusterKinds(), v.unserved());
    }

    /** The cluster as the last plan left it: as read, or as carried out in full. */
    static HeldViews of(LastPlans.Last<HeldViews> last) {
        return last.carriedOut() && last.plan() instanceof DeclaredPlan p ? last.remembered().after(p)
                : last.remembered();
    }

    /** What is kept of an object read or listed ({@link LiveObject#lean}). */
    static LiveObject lean(LiveObject o) {
        return o.lean();
    }

    /** As the plan, carried out in full, leaves the objects. */
    HeldViews after(DeclaredPlan p) {
        Map<String, LiveObject> out = new HashMap<>(live);
        p.deletes().forEach(d -> out.remove(Identity.key(d.ref())));
        for (ObjectNode o : p.apply()) {
            ObjectRef ref = ManifestObjects.ref(o);
            out.put(Identity.key(ref), new LiveObject(ref, p.key().owner(), p.bodies().whole(o)));
        }
        return new HeldViews(out, clusterKinds, unserved);
    }
}
