package dev.rekon.cluster.watch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Versioned;
import dev.rekon.core.NamespacePolicy;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The one watch of one kind per scope (a namespace of {@code rekon.namespaces}, or all of them), holding for
 * each object the views of every facet that reads it, side by side; an object no facet reads is held only as the
 * identity the informer needs. Index keys are kept per facet, so one facet never finds another's objects. An object
 * Rekon may only watch by its name has a watch of its own beside those ({@link #named}), holding the same views.
 */
final class SharedKind {

    static final String EVERYWHERE = KindWatches.EVERYWHERE;

    private final WatchedKindId id;
    private final List<WatchFacet<?>> facets;
    private final NamespacePolicy policy;
    private final Function<String, List<JsonNode>> lister;
    private final KindWatches<Object[]> watches;
    private final KindWatches<Object[]> named;
    private final List<LatestKnown<FacetViews.Known<?>>> known;

    /**
     * @param informers makes the not yet started informer of a namespace (null: of every namespace, or of a
     *                  cluster-scoped kind), of all its objects or (a name given) of the one so named
     * @param json      turns a watched object into the tree every facet reads
     * @param lister    lists the objects of a namespace (null: of every namespace) where no watch runs
     */
    SharedKind(WatchedKindId id, List<WatchFacet<?>> facets, NamespacePolicy policy,
            BiFunction<String, String, SharedIndexInformer<GenericKubernetesResource>> informers,
            Function<GenericKubernetesResource, JsonNode> json, Function<String, List<JsonNode>> lister) {
        this.id = id;
        this.facets = List.copyOf(facets);
        this.policy = policy;
        this.lister = lister;
        this.known = facets.stream().map(f -> new LatestKnown<FacetViews.Known<?>>(FacetViews.Known::key)).toList();
        Supplier<ViewStore<Object[]>> stores = () -> new ViewStore<>(r -> viewsOf(json.apply(r)), this::indexKeys,
                this::changed);
        this.watches = new KindWatches<>(id.kind() + "s", key -> informers.apply(EVERYWHERE.equals(key) ? null : key,
                null), stores);
        this.named = new KindWatches<>(id.kind(), key -> informer(informers, key), stores, ScopeRules.BY_NAME);
    }

    /** The informer of the object under {@code key} ({@link ViewStore#keyOf}), which splits at its first '/'. */
    private static SharedIndexInformer<GenericKubernetesResource> informer(
            BiFunction<String, String, SharedIndexInformer<GenericKubernetesResource>> informers, String key) {
        // A namespace holds no '/': what follows the first one is the object's name.
        int slash = key.indexOf('/');
        return slash < 0 ? informers.apply(null, key) : informers.apply(key.substring(0, slash),
                key.substring(slash + 1));
    }

    WatchedKindId id() {
        return id;
    }

    int indexOf(WatchFacet<?> facet) {
        for (int i = 0; i < facets.size(); i++) {
            if (facets.get(i) == facet || facets.get(i).getClass() == facet.getClass()) {
                return i;
            }
        }
        throw new IllegalStateException(facet.getClass().getName() + " is not a facet of " + id.key());
    }

    /** The watch keys that cover {@code namespace} (null: every namespace Rekon may look in). */
    List<String> watchKeys(String namespace) {
        if (!id.namespaced() || id.everywhere() || policy.everyNamespace()) {
            return List.of(EVERYWHERE);
        }
        return namespace != null ? List.of(namespace) : policy.across(List::of, List::of);
    }

    ViewStore<Object[]> store(String watchKey, long waitMillis) {
        return waitMillis <= 0 ? watches.get(watchKey) : watches.get(watchKey, java.time.Duration.ofMillis(waitMillis));
    }

    boolean loading(String watchKey) {
        return watches.loading(watchKey);
    }

    /** The store of the watch of the one object so named, once synced and while it runs; else null, for now. */
    ViewStore<Object[]> named(String namespace, String name) {
        return named.get(ViewStore.keyOf(namespace, name));
    }

    /** Whether a watch of a namespace or of the cluster was asked for (not only watches of objects by name). */
    boolean watched() {
        return watches.any();
    }

    /** Lists where no watch runs: every facet's views of the objects in {@code namespace} (null: all listed). */
    List<ViewStore.Found<Object[]>> list(String watchKey, String namespace) {
        List<ViewStore.Found<Object[]>> out = new ArrayList<>();
        for (JsonNode object : lister.apply(EVERYWHERE.equals(watchKey) ? null : watchKey)) {
            JsonNode meta = object.path("metadata");
            String ns = meta.path("namespace").asText(null);
            Object[] v = namespace == null || namespace.equals(ns) ? viewsOf(object) : null;
            if (v != null) {
                out.add(new ViewStore.Found<>(ViewStore.keyOf(ns, meta.path("name").asText(null)),
                        new Versioned<>(meta.path("resourceVersion").asText(null), v)));
            }
        }
        return out;
    }

    /** What this process wrote or read of the facet's objects, until the watch shows it. */
    LatestKnown<FacetViews.Known<?>> known(int facet) {
        return known.get(facet);
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    Collection<String> keysOf(int facet, Object view) {
        return ((WatchFacet) facets.get(facet)).indexKeys(view);
    }

    static String key(int facet, String key) {
        return facet + ":" + key;
    }

    /** The key under which every object a facet reads is found. */
    static String present(int facet) {
        return facet + "#";
    }

    private Object[] viewsOf(JsonNode object) {
        Object[] out = new Object[facets.size()];
        boolean any = false;
        for (int i = 0; i < out.length; i++) {
            out[i] = facets.get(i).view(object);
            any |= out[i] != null;
        }
        return any ? out : null;
    }

    /** Tells each facet whose view of an object changed (see {@link WatchFacet#changed}). */
    @SuppressWarnings({ "unchecked", "rawtypes" })
    private void changed(Object[] before, Object[] after) {
        for (int i = 0; i < facets.size(); i++) {
            Object was = before == null ? null : before[i];
            Object is = after == null ? null : after[i];
            if (was != null || is != null) {
                ((WatchFacet) facets.get(i)).changed(was, is);
            }
        }
    }

    private Collection<String> indexKeys(Object[] views) {
        if (views == null) {
            return List.of();
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < views.length; i++) {
            if (views[i] != null) {
                keys.add(present(i));
                for (String k : keysOf(i, views[i])) {
                    keys.add(key(i, k));
                }
            }
        }
        return keys;
    }

    void stop() {
        watches.stopAll();
        named.stopAll();
    }
}
