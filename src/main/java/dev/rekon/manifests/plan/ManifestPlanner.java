package dev.rekon.manifests.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Drift;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestBodies;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.Stages;

/**
 * Decides, for one owner (a module of a Kyma, a DeclaredState), which of its manifest objects to apply and which
 * of its recorded objects to prune, from the objects and the live cluster alone: an object that is missing or
 * drifted is applied (staged: CRDs, Namespaces, RBAC, the rest); a Namespace that someone else has is shared and
 * left alone; a recorded object no manifest declares any more is pruned, in reverse stage order. The same inputs
 * always give the same diff; a converged owner gives an empty one.
 */
public final class ManifestPlanner {

    private ManifestPlanner() {
    }

    /**
     * @param desired  the manifest objects, labelled as the owner's
     * @param live     the live object a reference names, or null when it does not exist
     * @param owner    the owner's name, as its owner label carries it
     * @param recorded the objects recorded as the owner's that may be pruned (a Namespace only if the owner
     *                 created it)
     */
    public static ManifestDiff diff(List<ObjectNode> desired, Function<ObjectRef, LiveObject> live, String owner,
            Collection<ObjectRef> recorded) {
        return diff(desired, ManifestBodies.WHOLE, live, owner, recorded);
    }

    /**
     * The same, for objects planned from their identity: {@code bodies} gives the whole object where it is compared
     * with a live one.
     */
    public static ManifestDiff diff(List<ObjectNode> desired, ManifestBodies bodies,
            Function<ObjectRef, LiveObject> live, String owner, Collection<ObjectRef> recorded) {
        List<ObjectNode> apply = new ArrayList<>();
        List<ObjectRef> drifted = new ArrayList<>();
        for (ObjectNode o : desired) {
            ObjectRef ref = ManifestObjects.ref(o);
            LiveObject l = live.apply(ref);
            if (l == null) {
                apply.add(o);
            } else if (sharedNamespace(ref, l, owner)) {
                continue;
            } else if (!Drift.holds(bodies.whole(o), l.object())) {
                apply.add(o);
                drifted.add(ref);
            }
        }
        apply.sort((a, b) -> Stages.applyOrder().compare(ManifestObjects.ref(a), ManifestObjects.ref(b)));
        Set<String> declared = desired.stream().map(o -> Identity.key(ManifestObjects.ref(o))).collect(Collectors.toSet());
        List<LiveObject> prune = deleteOrder(recorded.stream().filter(r -> !declared.contains(Identity.key(r)))
                .map(live).filter(Objects::nonNull).toList(), LiveObject::ref);
        return new ManifestDiff(apply, drifted, prune);
    }

    /** A Namespace that exists and is not the owner's: shared, never applied over nor deleted. */
    public static boolean sharedNamespace(ObjectRef ref, LiveObject live, String owner) {
        return "Namespace".equals(ref.kind()) && !owner.equals(live.owner());
    }

    /** Reverse stage order, CRDs last; within a stage the reverse of the given order. */
    public static <T> List<T> deleteOrder(List<T> objects, Function<T, ObjectRef> ref) {
        List<T> reversed = new ArrayList<>(objects);
        Collections.reverse(reversed);
        reversed.sort((a, b) -> Stages.deleteOrder().compare(ref.apply(a), ref.apply(b)));
        return reversed;
    }
}
