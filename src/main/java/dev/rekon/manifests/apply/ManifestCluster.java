package dev.rekon.manifests.apply;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;

/**
 * An owner's manifest objects on a cluster, as one identity: what exists of them (with the owner their label
 * names), every object of a kind in a namespace, and the engine's writes.
 */
public interface ManifestCluster extends ManifestWriter {

    /** The objects among {@code refs} that exist, by {@link dev.rekon.manifests.Identity#key}. */
    Map<String, LiveObject> live(String owner, Collection<ObjectRef> refs);

    /**
     * The same, knowing which of {@code refs} the owner's inventory records (by {@link dev.rekon.manifests.Identity#key}):
     * those it does not record (an install, a revision that adds many) carry no owner label to be found by, so where
     * more than a few of a kind are new the kind is read without the label lookup that would find none of them.
     */
    default Map<String, LiveObject> live(String owner, Collection<ObjectRef> refs, Set<String> recorded) {
        return live(owner, refs);
    }

    /** Every object of a kind ({@code kind}'s apiVersion and kind) in its namespace, or cluster-wide when null. */
    List<LiveObject> all(ObjectRef kind);

    /**
     * The same as metadata only (each object's apiVersion, kind and metadata, as Kubernetes'
     * {@code PartialObjectMetadataList} answers): what an orphan scan needs, at a fraction of the bytes; of a
     * namespaced kind in every namespace when {@code kind} names none.
     */
    List<LiveObject> metadata(ObjectRef kind);

    /**
     * The same, each object handed to {@code each} as its page is read, so that a caller keeping less than the
     * object (an orphan scan's identities) never holds a whole list of every namespace at once.
     */
    default void metadata(ObjectRef kind, Consumer<LiveObject> each) {
        metadata(kind).forEach(each);
    }
}
