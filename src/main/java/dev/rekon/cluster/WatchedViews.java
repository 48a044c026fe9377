package dev.rekon.cluster;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Views of one kind kept by {@link WatchCaches} (a watch per key, started on first use) in {@link ViewStore}s:
 * each object is converted to its view once, when its watch delivers it. A key without a running watch
 * answers null, and the caller reads the apiserver instead.
 */
public final class WatchedViews<V> {

    private final WatchCaches<GenericKubernetesResource> caches;
    private final Map<String, ViewStore<V>> stores = new ConcurrentHashMap<>();

    /** @param informers makes the not yet started informer for a key */
    public WatchedViews(String what, Function<String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Function<GenericKubernetesResource, V> toView, Function<V, Collection<String>> indexKeys) {
        caches = new WatchCaches<>(what, key -> {
            SharedIndexInformer<GenericKubernetesResource> informer = informers.apply(key);
            ViewStore<V> store = new ViewStore<>(toView, indexKeys);
            informer.itemStore(store);
            stores.put(key, store);
            return informer;
        });
    }

    /** The views of the key's running, synced watch, or null when there is none for now. */
    public ViewStore<V> get(String key) {
        return caches.get(key) == null ? null : stores.get(key);
    }

    public void stopAll() {
        caches.stopAll();
    }
}
