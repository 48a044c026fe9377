package dev.rekon.manifests.apply;

/**
 * Where an area keeps an owner's inventory, and the owner's finalizer: a DeclaredState's status, a module's
 * ConfigMap. Each write is guarded by the resourceVersion the one before it answered (the first by the one read).
 *
 * @param <R> what the area records there
 */
public interface InventoryStore<R> {

    /** Adds or removes Rekon's finalizer on the owner; an owner without one is never asked. */
    default void finalizer(boolean present) {
        throw new UnsupportedOperationException("this owner has no finalizer");
    }

    void write(R record);

    /** Drops the inventory; an owner whose inventory is never dropped is never asked. */
    default void forget() {
        throw new UnsupportedOperationException("this owner's inventory is never dropped");
    }
}
