package dev.rekon.manifests.apply;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.plan.WriteResult;

/**
 * The writes the engine makes of manifest objects, as one identity (Rekon's own, or a ServiceAccount by
 * impersonation). Failures are Rekon's: a lost race is a {@link dev.rekon.core.ConflictException}, a refusal a
 * {@link dev.rekon.core.RefusedException} naming the object, anything else transient.
 */
public interface ManifestWriter {

    /** Server-side apply, field manager {@code rekon}, taking back fields it set that someone changed. */
    void apply(ObjectNode object);

    /** The same apply, answering the object's uid and resourceVersion as the server has it now; null if unknown. */
    default WriteResult.Applied applied(ObjectNode object) {
        apply(object);
        return null;
    }

    /** Waits until a CRD is Established (bounded; a transient failure when it is not). */
    void awaitEstablished(ObjectRef crd);

    /**
     * Deletes the object as it was seen, guarded by its uid and resourceVersion: one that changed since is a
     * conflict (planned again), one already gone is fine.
     */
    void delete(LiveObject object);
}
