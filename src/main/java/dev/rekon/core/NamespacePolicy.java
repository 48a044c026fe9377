package dev.rekon.core;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** Decides whether Rekon may act in a namespace, from the comma-separated `rekon.namespaces` list ({@code *} = all). */
public final class NamespacePolicy {

    public static final String REASON = "NamespaceNotAllowed";

    private final Set<String> allowed;
    private final boolean all;
    private final boolean clusterScoped;

    private NamespacePolicy(Set<String> allowed, boolean clusterScoped) {
        this.allowed = allowed;
        this.all = allowed.contains("*");
        this.clusterScoped = all || clusterScoped;
    }

    /** @param clusterScoped whether cluster-scoped objects (ClusterBuildpack, ClusterBuilder) are allowed too */
    public static NamespacePolicy parse(String list, boolean clusterScoped) {
        return new NamespacePolicy(parse(list).allowed, clusterScoped);
    }

    public static NamespacePolicy parse(String list) {
        Set<String> names = Arrays.stream(list == null ? new String[0] : list.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        return new NamespacePolicy(names, false);
    }

    /** Cluster-scoped objects (null namespace) are allowed when every namespace is, or when switched on. */
    public boolean allows(String namespace) {
        return namespace == null ? clusterScoped : all || allowed.contains(namespace);
    }

    /** Whether every namespace is allowed, so one cluster-wide list or watch serves them all. */
    public boolean everyNamespace() {
        return all;
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
        if (namespace == null) {
            return "cluster-scoped objects are outside rekon.namespaces " + allowed
                    + "; set rekon.cluster-scoped=true (or rekon.namespaces=*) to let Rekon act on them";
        }
        return "namespace '" + namespace + "' is not in rekon.namespaces " + allowed
                + "; add it there (or '*') to let Rekon act in it";
    }
}
