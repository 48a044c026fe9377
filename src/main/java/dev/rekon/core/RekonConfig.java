package dev.rekon.core;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Settings every function shares. Plain properties rather than a mapping of the whole {@code rekon.}
 * prefix, so that each function area can own its own {@code rekon.<area>.} mapping.
 */
@ApplicationScoped
public class RekonConfig {

    /** Namespaces Rekon may act in, comma-separated; {@code *} means all. Checked before any API call. */
    @ConfigProperty(name = "rekon.namespaces", defaultValue = "*")
    String namespaces;

    /** With an explicit namespace list: whether cluster-scoped objects may be acted on too. */
    @ConfigProperty(name = "rekon.cluster-scoped", defaultValue = "false")
    boolean clusterScoped;

    private volatile NamespacePolicy policy;

    public NamespacePolicy namespacePolicy() {
        NamespacePolicy p = policy;
        if (p == null) {
            p = NamespacePolicy.parse(namespaces, clusterScoped);
            policy = p;
        }
        return p;
    }
}
