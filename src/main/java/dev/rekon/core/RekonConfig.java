package dev.rekon.core;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings every function shares. */
@ConfigMapping(prefix = "rekon")
public interface RekonConfig {

    /** Namespaces Rekon may act in, comma-separated; {@code *} means all. Checked before any API call. */
    @WithDefault("*")
    String namespaces();

    default NamespacePolicy namespacePolicy() {
        return NamespacePolicy.parse(namespaces());
    }
}
