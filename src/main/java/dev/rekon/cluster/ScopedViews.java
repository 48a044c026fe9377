package dev.rekon.cluster;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import dev.rekon.core.NamespacePolicy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Views of one namespaced kind where the namespace policy lets Rekon look, found by index key: from one watch per
 * namespace of an explicit {@code rekon.namespaces} (one cluster-wide for {@code *}), or, where a watch cannot
 * run (no RBAC for watch, apiserver down), from a list. Each watched object becomes its view once.
 */
public final class ScopedViews<V> {

    /** The watch key of the cluster-wide watch. */
    public static final String EVERYWHERE = "*";

    private final NamespacePolicy policy;
    private final Function<String, List<GenericKubernetesResource>> lister;
    private final Function<GenericKubernetesResource, V> toView;
    private final Function<V, Collection<String>> indexKeys;
    private final WatchedViews<V> watches;

    /**
     * @param informers makes the not yet started informer of a namespace (null: of all namespaces)
     * @param lister lists the objects of a namespace (null: of all namespaces)
     */
    public ScopedViews(String what, NamespacePolicy policy,
            Function<String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Function<String, List<GenericKubernetesResource>> lister, Function<GenericKubernetesResource, V> toView,
            Function<V, Collection<String>> indexKeys) {
        this.policy = policy;
        this.lister = lister;
        this.toView = toView;
        this.indexKeys = indexKeys;
        this.watches = new WatchedViews<>(what, key -> informers.apply(EVERYWHERE.equals(key) ? null : key), toView, indexKeys);
    }

    /** The views under the index key, in every namespace Rekon may act in. */
    public List<V> find(String indexKey) {
        return policy.across(ns -> find(ns, indexKey), () -> find(EVERYWHERE, indexKey));
    }

    private List<V> find(String watchKey, String indexKey) {
        ViewStore<V> store = watches.get(watchKey);
        if (store != null) {
            return store.find(null, Set.of(indexKey)).stream().map(Versioned::view).toList();
        }
        return lister.apply(EVERYWHERE.equals(watchKey) ? null : watchKey).stream().map(toView)
                .filter(v -> indexKeys.apply(v).contains(indexKey)).toList();
    }

    public void stop() {
        watches.stopAll();
    }
}
