package dev.rekon.resync;

/**
 * What one resync pass covers.
 *
 * @param namespace only this namespace (and no cluster-scoped object), or null for every allowed one
 * @param report    plan only: count and list what would change, write nothing (the status page's view)
 * @param fanout    the area's part of a fanned-out pass ({@link FanoutPass}): its keys are sent, not worked here;
 *                  null when the pass works its keys itself
 */
public record ResyncScope(String namespace, boolean report, FanoutPass.ForArea fanout) {

    public ResyncScope(String namespace, boolean report) {
        this(namespace, report, null);
    }

    public static ResyncScope all() {
        return new ResyncScope(null, false);
    }

    public boolean covers(String objectNamespace) {
        return namespace == null || namespace.equals(objectNamespace);
    }

    /** The same scope, its keys sent through {@code fanout}. */
    ResyncScope fannedOut(FanoutPass.ForArea fanout) {
        return new ResyncScope(namespace, report, fanout);
    }
}
