package dev.rekon.declared;

import dev.rekon.core.ObjectRef;

/**
 * Names one DeclaredState, what every input about it (its event, a push to its branch, a resync, a status request)
 * becomes. {@code scanOrphans}: the pass also lists every namespaced kind in its namespaces to find what git
 * never declared (resync passes and reports; an event or a push only applies and prunes).
 */
public record DeclaredKey(String namespace, String name, boolean scanOrphans) {

    public static final String API_VERSION = "rekon.dev/v1alpha1";
    public static final String KIND = "DeclaredState";

    public ObjectRef ref() {
        return new ObjectRef(API_VERSION, KIND, namespace, name);
    }

    /** The value of the owner label its objects carry: {@code <namespace>.<name>}. */
    public String owner() {
        return namespace + "." + name;
    }
}
