package dev.rekon.resync;

/**
 * What one resync pass covers.
 *
 * @param namespace only this namespace (and no cluster-scoped object), or null for every allowed one
 * @param report    plan only: count and list what would change, write nothing (the status page's view)
 */
public record ResyncScope(String namespace, boolean report) {

    public static ResyncScope all() {
        return new ResyncScope(null, false);
    }

    public boolean covers(String objectNamespace) {
        return namespace == null || namespace.equals(objectNamespace);
    }
}
