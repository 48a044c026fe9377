package dev.rekon.declared;

import java.util.Objects;

import dev.rekon.core.ObjectRef;

/**
 * Names one DeclaredState, what every input about it (its event, a push to its branch, a resync, a status request)
 * becomes. {@code scanOrphans}: the pass also lists every namespaced kind in its namespaces to find what git
 * never declared (resync passes and reports; an event or a push only applies and prunes). {@code tips}: what the
 * input has read of git, so that every attempt and every DeclaredState of the input shares one listing of a tip;
 * it travels with the key and is no part of its identity.
 */
public record DeclaredKey(String namespace, String name, boolean scanOrphans, TipMemo tips) {

    public static final String API_VERSION = "rekon.dev/v1alpha1";
    public static final String KIND = "DeclaredState";

    public DeclaredKey {
        tips = tips == null ? TipMemo.perInput() : tips;
    }

    /** A key of an input of its own (one listing of the tip for it). */
    public DeclaredKey(String namespace, String name, boolean scanOrphans) {
        this(namespace, name, scanOrphans, TipMemo.perInput());
    }

    /**
     * The same DeclaredState with an empty memo that lists no tip: what a plan names it by, since the loop keeps each
     * DeclaredState's last plan, and a pass's memo holds every revision and the lists of every kind it read.
     */
    public DeclaredKey withoutReads() {
        return new DeclaredKey(namespace, name, scanOrphans, TipMemo.lastKnown());
    }

    public ObjectRef ref() {
        return new ObjectRef(API_VERSION, KIND, namespace, name);
    }

    /** The value of the owner label its objects carry: {@code <namespace>.<name>}. */
    public String owner() {
        return namespace + "." + name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeclaredKey k && namespace.equals(k.namespace) && name.equals(k.name)
                && scanOrphans == k.scanOrphans;
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespace, name, scanOrphans);
    }
}
