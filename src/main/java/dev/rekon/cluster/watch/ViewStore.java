package dev.rekon.cluster.watch;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.rekon.cluster.Versioned;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * An informer's item store that keeps of each object only its view, made once when the watch delivers the
 * object, and its identity (kind, namespace, name, uid, resourceVersion: what the informer itself compares),
 * never the whole object: a reader pays no conversion per read, and the memory is that of the views. Views
 * are found by namespace and by the keys {@code indexKeys} gives for them.
 */
final class ViewStore<V> implements ItemStore<GenericKubernetesResource> {

    private final Function<GenericKubernetesResource, V> toView;
    private final Function<V, Collection<String>> indexKeys;
    private final Map<String, Held<V>> items = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> byKey = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> byNamespace = new ConcurrentHashMap<>();

    /**
     * One object: its view and the identity the informer compares, as strings (those of the tree, already
     * canonical), made into fabric8's object only when the informer asks: kept as one, with its maps and lists,
     * it weighed more than many a view.
     */
    private record Held<V>(String apiVersion, String kind, String ns, String name, String uid,
            Versioned<V> versioned) {
        String namespace() {
            return Objects.requireNonNullElse(ns, "");
        }

        GenericKubernetesResource identity() {
            GenericKubernetesResource id = new GenericKubernetesResource();
            id.setApiVersion(apiVersion);
            id.setKind(kind);
            id.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).withUid(uid)
                    .withResourceVersion(versioned.resourceVersion()).build());
            return id;
        }
    }

    private final BiConsumer<V, V> changed;

    ViewStore(Function<GenericKubernetesResource, V> toView, Function<V, Collection<String>> indexKeys) {
        this(toView, indexKeys, (before, after) -> {
        });
    }

    /**
     * @param changed told of each view replaced (before null: newly held; after null: gone), once it is held, on
     *                the watch's thread: it may only hand work on, never wait
     */
    ViewStore(Function<GenericKubernetesResource, V> toView, Function<V, Collection<String>> indexKeys,
            BiConsumer<V, V> changed) {
        this.toView = toView;
        this.indexKeys = indexKeys;
        this.changed = changed;
    }

    /** One view found, under its object's key ({@link #keyOf}). */
    record Found<V>(String key, Versioned<V> versioned) {
    }

    /**
     * The views held now: of one namespace (of all when null), and only those under one of {@code indexKeys}
     * (all when null).
     */
    List<Found<V>> find(String namespace, Collection<String> indexKeys) {
        Stream<String> keys = indexKeys != null
                ? indexKeys.stream().flatMap(k -> byKey.getOrDefault(k, Set.of()).stream()).distinct()
                : namespace != null ? byNamespace.getOrDefault(namespace, Set.of()).stream() : items.keySet().stream();
        return keys.map(k -> {
            Held<V> h = items.get(k);
            return h == null || namespace != null && !namespace.equals(h.namespace()) ? null
                    : new Found<>(k, h.versioned());
        }).filter(Objects::nonNull).toList();
    }

    /** The key the informer holds an object under: {@code namespace/name}, or the name of a cluster-scoped one. */
    static String keyOf(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }

    @Override
    public String getKey(GenericKubernetesResource obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    @Override
    public synchronized GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
        Versioned<V> versioned = new Versioned<>(obj.getMetadata().getResourceVersion(), toView.apply(obj));
        Held<V> held = new Held<>(obj.getApiVersion(), obj.getKind(), obj.getMetadata().getNamespace(),
                obj.getMetadata().getName(), obj.getMetadata().getUid(), versioned);
        return replace(key, items.put(key, held), held);
    }

    @Override
    public synchronized GenericKubernetesResource remove(String key) {
        return replace(key, items.remove(key), null);
    }

    private GenericKubernetesResource replace(String key, Held<V> old, Held<V> now) {
        GenericKubernetesResource identity = index(key, old, now);
        V before = old == null ? null : old.versioned().view();
        V after = now == null ? null : now.versioned().view();
        if (before != null || after != null) {
            changed.accept(before, after);
        }
        return identity;
    }

    /**
     * Indexes what the new view adds before it unindexes what the old one had and the new one has not: readers do
     * not lock, and one reading while an update unindexed and indexed the same key again did not find the object
     * at all (a DeclaredState missing from its namespace's list is no longer protected from a neighbour's orphan
     * scan).
     */
    private GenericKubernetesResource index(String key, Held<V> old, Held<V> now) {
        Set<String> before = old == null ? Set.of() : Set.copyOf(indexKeys.apply(old.versioned().view()));
        Set<String> after = now == null ? Set.of() : Set.copyOf(indexKeys.apply(now.versioned().view()));
        after.stream().filter(k -> !before.contains(k)).forEach(k -> index(byKey, k, key));
        before.stream().filter(k -> !after.contains(k)).forEach(k -> unindex(byKey, k, key));
        String was = old == null ? null : old.namespace();
        String is = now == null ? null : now.namespace();
        if (is != null && !is.equals(was)) {
            index(byNamespace, is, key);
        }
        if (was != null && !was.equals(is)) {
            unindex(byNamespace, was, key);
        }
        return old == null ? null : old.identity();
    }

    /**
     * Most index keys find one object (an ImageDeploy's or a Deployment's name): those hold an immutable set of
     * one, a concurrent set only once a second object shares the key. Every change of a key's set runs inside the
     * map's {@code compute}, one at a time per key; readers see either set whole.
     */
    private static void index(Map<String, Set<String>> index, String indexKey, String key) {
        index.compute(indexKey, (k, keys) -> {
            if (keys == null) {
                return Set.of(key);
            }
            if (keys.contains(key)) {
                return keys;
            }
            Set<String> grown = keys.size() == 1 && !(keys instanceof ConcurrentHashMap.KeySetView) ? shared(keys)
                    : keys;
            grown.add(key);
            return grown;
        });
    }

    private static Set<String> shared(Set<String> one) {
        Set<String> keys = ConcurrentHashMap.newKeySet();
        keys.addAll(one);
        return keys;
    }

    private static void unindex(Map<String, Set<String>> index, String indexKey, String key) {
        index.computeIfPresent(indexKey, (k, keys) -> {
            if (!(keys instanceof ConcurrentHashMap.KeySetView)) {
                return keys.contains(key) ? null : keys;
            }
            keys.remove(key);
            return keys.isEmpty() ? null : keys;
        });
    }

    @Override
    public Stream<String> keySet() {
        return items.keySet().stream();
    }

    @Override
    public Stream<GenericKubernetesResource> values() {
        return items.values().stream().map(Held::identity);
    }

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public GenericKubernetesResource get(String key) {
        Held<V> held = items.get(key);
        return held == null ? null : held.identity();
    }

    /** Says, as fabric8's ReducedStateItemStore does, that the informer's objects are not held whole here. */
    @Override
    public boolean isFullState() {
        return false;
    }

}
