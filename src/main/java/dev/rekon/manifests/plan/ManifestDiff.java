package dev.rekon.manifests.plan;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;

/**
 * What bringing the cluster in line with a set of manifest objects takes: {@code apply} in stage order (missing
 * objects, and those whose fields the manifest sets someone changed: {@code drifted}), and {@code prune}, the
 * recorded objects the manifests no longer declare, in delete order, each as it was seen (its delete is guarded
 * by that uid and resourceVersion).
 */
public record ManifestDiff(List<ObjectNode> apply, List<ObjectRef> drifted, List<LiveObject> prune) {

    public ManifestDiff {
        apply = List.copyOf(apply);
        drifted = List.copyOf(drifted);
        prune = List.copyOf(prune);
    }

    public boolean converged() {
        return apply.isEmpty() && prune.isEmpty();
    }

    public List<ObjectRef> pruneRefs() {
        return prune.stream().map(LiveObject::ref).toList();
    }
}
