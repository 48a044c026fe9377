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

    public String refusal(String namespace) {
        return "namespace '" + namespace + "' is not in rekon.namespaces " + allowed
                + "; add it there (or '*') to let Rekon act in it";
    }
}
