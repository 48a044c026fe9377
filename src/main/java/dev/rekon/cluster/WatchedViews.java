package dev.rekon.cluster;

import java.time.Duration;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Views of one kind kept by {@link WatchCaches} (a watch per key, started in the background on first use) in
 * {@link ViewStore}s: each object is converted to its view once, when its watch delivers it. A key without a
 * running, synced watch answers null, and the caller reads the apiserver instead.
 */
public final class WatchedViews<V> {

    private final WatchCaches<GenericKubernetesResource> caches;
    private final Map<String, Held<V>> stores = new ConcurrentHashMap<>();

    /** A key's newest informer and its store: a store is only answered for the informer it fills. */
    private record Held<V>(SharedIndexInformer<GenericKubernetesResource> informer, ViewStore<V> store) {
    }

    /** @param informers makes the not yet started informer for a key */
    public WatchedViews(String what, Function<String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Function<GenericKubernetesResource, V> toView, Function<V, Collection<String>> indexKeys) {
        this(what, informers, toView, indexKeys, (before, after) -> {
        });
    }

    /** The same, telling {@code changed} of every view a watch replaces (see {@link ViewStore}). */
    public WatchedViews(String what, Function<String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Function<GenericKubernetesResource, V> toView, Function<V, Collection<String>> indexKeys,
            java.util.function.BiConsumer<V, V> changed) {
        caches = new WatchCaches<>(what, key -> {
            SharedIndexInformer<GenericKubernetesResource> informer = informers.apply(key);
            ViewStore<V> store = new ViewStore<>(toView, indexKeys, changed);
            informer.itemStore(store);
            stores.put(key, new Held<>(informer, store));
            return informer;
        });
    }

    /** The views of the key's running, synced watch, or null when there is none for now. */
    public ViewStore<V> get(String key) {
        return storeOf(key, caches.get(key));
    }

    /** The same, waiting up to {@code wait} for a watch still starting (see {@link WatchCaches#get(String, Duration)}). */
    public ViewStore<V> get(String key, Duration wait) {
        return storeOf(key, caches.get(key, wait));
    }

    private ViewStore<V> storeOf(String key, SharedIndexInformer<GenericKubernetesResource> informer) {
        Held<V> held = informer == null ? null : stores.get(key);
        return held != null && held.informer() == informer ? held.store() : null;
    }

    /** Whether the key's watch is still starting, so a missing store means "not yet", not "cannot". */
    public boolean loading(String key) {
        return caches.loading(key);
    }

    public void stopAll() {
        caches.stopAll();
    }
}
