package dev.rekon.core;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** Decides whether Rekon may act in a namespace, from the comma-separated `rekon.namespaces` list ({@code *} = all). */
public final class NamespacePolicy {

    public static final String REASON = "NamespaceNotAllowed";

    private final Set<String> allowed;
    private final boolean all;

    private NamespacePolicy(Set<String> allowed) {
        this.allowed = allowed;
        this.all = allowed.contains("*");
    }

    public static NamespacePolicy parse(String list) {
        Set<String> names = Arrays.stream(list == null ? new String[0] : list.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        return new NamespacePolicy(names);
    }

    /** Cluster-scoped objects (null namespace) are allowed only when every namespace is. */
    public boolean allows(String namespace) {
        return all || (namespace != null && allowed.contains(namespace));
    }

    /**
     * Lists across the namespaces Rekon may act in: one list per allowed namespace when the allow-list is
     * explicit (so per-namespace RoleBindings suffice), one cluster-wide list when it is {@code *}.
     */
    public <T> java.util.List<T> across(java.util.function.Function<String, java.util.List<T>> inNamespace,
            java.util.function.Supplier<java.util.List<T>> everywhere) {
        if (all) {
            return everywhere.get();
        }
        java.util.List<T> out = new java.util.ArrayList<>();
        allowed.stream().sorted().forEach(ns -> out.addAll(inNamespace.apply(ns)));
        return out;
    }

    public String refusal(String namespace) {
        return "namespace '" + namespace + "' is not in rekon.namespaces " + allowed
                + "; add it there (or '*') to let Rekon act in it";
    }
}
