package dev.rekon.buildpacks;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.ViewStore;
import dev.rekon.cluster.WatchedViews;
import dev.rekon.core.NamespacePolicy;

/**
 * Views of one kpack kind where the namespace policy lets Rekon look: from watches (one per namespace of an
 * explicit {@code rekon.namespaces}, else one cluster-wide), or, for a namespace whose watch cannot run, from
 * a list as before. Each watched object is converted to its view once; a listed one on every read.
 */
final class KpackViews<V> {

    static final String EVERYWHERE = dev.rekon.cluster.WatchCaches.EVERYWHERE;

    private final String kind;
    private final KubeBuildpackGateway gateway;
    private final NamespacePolicy policy;
    private final Function<JsonNode, V> toView;
    private final Function<V, Collection<String>> indexKeys;
    private final WatchedViews<V> watches;

    KpackViews(String kind, KubeBuildpackGateway gateway, NamespacePolicy policy, Function<JsonNode, V> toView,
            Function<V, Collection<String>> indexKeys) {
        this.kind = kind;
        this.gateway = gateway;
        this.policy = policy;
        this.toView = toView;
        this.indexKeys = indexKeys;
        this.watches = new WatchedViews<>(kind + "s", key -> gateway.informer(kind, EVERYWHERE.equals(key) ? null : key),
                r -> toView.apply(gateway.json(r)), indexKeys);
    }

    /**
     * The views in {@code namespace} (null: in every allowed namespace, or all of a cluster-scoped kind), only
     * those under one of {@code wanted} index keys unless it is null.
     */
    List<Versioned<V>> find(String namespace, Collection<String> wanted) {
        if (!KubeBuildpackGateway.namespaced(kind)) {
            return find(EVERYWHERE, null, wanted);
        }
        if (namespace != null) {
            return find(policy.everyNamespace() ? EVERYWHERE : namespace, namespace, wanted);
        }
        return policy.across(ns -> find(ns, ns, wanted), () -> find(EVERYWHERE, null, wanted));
    }

    private List<Versioned<V>> find(String watchKey, String namespace, Collection<String> wanted) {
        ViewStore<V> store = watches.get(watchKey);
        if (store != null) {
            return store.find(namespace, wanted);
        }
        return gateway.list(kind, namespace).stream()
                .map(o -> new Versioned<>(o.path("metadata").path("resourceVersion").asText(null), toView.apply(o)))
                .filter(v -> wanted == null || !Collections.disjoint(indexKeys.apply(v.view()), wanted)).toList();
    }

    void stop() {
        watches.stopAll();
    }
}
