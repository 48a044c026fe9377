package dev.rekon.manifests.apply;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestBodies;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.Stages;
import dev.rekon.manifests.plan.WriteResult;

/**
 * Carries out the object writes of a diff in their order: the staged apply, every CRD Established before
 * anything of a later stage uses it, then the guarded deletes in the order planned. The owner writes its inventory
 * ahead of these and after them, so a failure part-way leaves every object that may exist recorded.
 */
public final class StagedWrites {

    private StagedWrites() {
    }

    public static Map<String, WriteResult.Applied> apply(ManifestWriter writer, List<ObjectNode> objects) {
        return apply(writer, objects, ManifestBodies.WHOLE);
    }

    /**
     * The same, each object made whole by {@code bodies} just before it is written; answers what the server said
     * of each object applied ({@link ManifestWriter#applied}), by {@link Identity#key}.
     */
    public static Map<String, WriteResult.Applied> apply(ManifestWriter writer, List<ObjectNode> objects,
            ManifestBodies bodies) {
        Map<String, WriteResult.Applied> answered = new HashMap<>();
        List<ObjectRef> crds = new ArrayList<>();
        for (ObjectNode o : objects) {
            ObjectRef ref = ManifestObjects.ref(o);
            if (Stages.of(ref) > Stages.CRDS && !crds.isEmpty()) {
                crds.forEach(writer::awaitEstablished);
                crds.clear();
            }
            WriteResult.Applied applied = writer.applied(bodies.whole(o));
            if (applied != null) {
                answered.put(Identity.key(ref), applied);
            }
            if (Stages.of(ref) == Stages.CRDS) {
                crds.add(ref);
            }
        }
        crds.forEach(writer::awaitEstablished);
        return answered;
    }

    public static void delete(ManifestWriter writer, List<LiveObject> objects) {
        objects.forEach(writer::delete);
    }
}
