package dev.rekon.manifests.plan;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.Reply;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestBodies;

/**
 * The writes of one attempt for one owner of manifest objects, in the one order of every area, from finalizer to
 * finalizer: add the owner's finalizer, record {@code writeAhead} (the inventory with every object about to be
 * created), apply {@code apply} in stages, make the guarded {@code deletes} (prunes, then orphans), record what
 * the plan decides for what those writes came to ({@link #record}: the inventory, and the status where it is kept
 * with it), or drop the inventory ({@code forget}), and let the owner go. An area's plan implements it;
 * {@code manifests/apply/WriteSequence} carries it out.
 *
 * @param <R> what the area records of its owner where it keeps the inventory (a DeclaredState's status, a
 *            module's {@code Inventory})
 */
public interface ManifestWrites<R> {

    default boolean addFinalizer() {
        return false;
    }

    /** Recorded before any object is written, so that every object that may exist is; null: all already are. */
    R writeAhead();

    /** In stage order. */
    List<ObjectNode> apply();

    /** The whole object each of {@code apply} stands for. */
    default ManifestBodies bodies() {
        return ManifestBodies.WHOLE;
    }

    /** In the order planned, each guarded by the uid and resourceVersion seen. */
    List<LiveObject> deletes();

    /**
     * What the owner records once the object writes came to {@code result}, or null: nothing. Decided here, in the
     * plan, for a refusal too: the one place an owner's status is decided.
     */
    R record(WriteResult result);

    /** Whether the inventory is dropped once every object write was made (the owner is no longer Rekon's). */
    default boolean forget() {
        return false;
    }

    default boolean removeFinalizer() {
        return false;
    }

    /** The reply the owner's Event carries once the writes are made (a warning when rejected), or null: none. */
    default Reply event() {
        return null;
    }

    /** Whether any object is written or deleted. */
    default boolean writesObjects() {
        return !apply().isEmpty() || !deletes().isEmpty();
    }
}
