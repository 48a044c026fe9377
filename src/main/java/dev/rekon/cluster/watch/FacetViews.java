package dev.rekon.cluster.watch;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.rekon.cluster.ColdStartGate;
import dev.rekon.cluster.Versioned;

/**
 * One facet's views of the shared watch of its kind: found by namespace and index key, from the watch when it has
 * synced. Readers on the event path never wait for a watch ({@link #cached}), readers off it may ({@link #waiting});
 * where no watch can run, {@link #cachedOrListed} lists as reads did before watches.
 */
public final class FacetViews<F> {

    private final SharedKind kind;
    private final int facet;

    FacetViews(SharedKind kind, int facet) {
        this.kind = kind;
        this.facet = facet;
    }

    /**
     * The views in {@code namespace} (null: every namespace Rekon may look in, or all of a cluster-scoped kind)
     * under one of {@code keys} (null: all), from synced watches only; empty when one of them has not synced.
     */
    public Optional<List<Versioned<F>>> cached(String namespace, Collection<String> keys) {
        return read(namespace, keys, 0);
    }

    /** The same, waiting up to {@code waitMillis} in all for watches still starting. */
    public Optional<List<Versioned<F>>> waiting(String namespace, Collection<String> keys, long waitMillis) {
        ColdStartGate.watchesNeeded();
        return read(namespace, keys, Math.max(1, waitMillis));
    }

    /** The same from the watches where they have synced, and from a list where they have not. */
    public List<Versioned<F>> cachedOrListed(String namespace, Collection<String> keys) {
        List<Versioned<F>> out = new ArrayList<>();
        for (String watchKey : kind.watchKeys(namespace)) {
            ViewStore<Object[]> store = kind.store(watchKey, 0);
            if (store != null) {
                out.addAll(found(store, namespace, keys));
            } else {
                out.addAll(listed(watchKey, namespace, keys));
            }
        }
        return out;
    }

    /**
     * The views in {@code namespace} (null: every namespace Rekon may look in) as the apiserver holds them now, one
     * list per watch scope, for a reader that must not miss a change its watch has yet to deliver.
     */
    public List<Versioned<F>> listed(String namespace) {
        List<Versioned<F>> out = new ArrayList<>();
        kind.watchKeys(namespace).forEach(watchKey -> out.addAll(listed(watchKey, namespace, null)));
        return out;
    }

    /**
     * For a report that must not show an empty picture as the truth: the views of every namespace Rekon may look
     * in, waiting for watches still starting until {@code deadline} (nanoTime); names in {@code loading} what is
     * still listing, and in {@code unavailable} what could not be watched.
     */
    public List<F> report(String what, List<String> unavailable, List<String> loading, long deadline) {
        ColdStartGate.watchesNeeded();
        List<F> out = new ArrayList<>();
        for (String watchKey : kind.watchKeys(null)) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            ViewStore<Object[]> store = kind.store(watchKey, Math.max(1, left));
            String where = what + (SharedKind.EVERYWHERE.equals(watchKey) ? "" : " in " + watchKey);
            if (store == null && kind.loading(watchKey)) {
                loading.add(where);
            } else if (store == null) {
                unavailable.add(where + ": no watch (see the log), so they are missing here");
            } else {
                found(store, null, null).forEach(v -> out.add(v.view()));
            }
        }
        return out;
    }

    private Optional<List<Versioned<F>>> read(String namespace, Collection<String> keys, long waitMillis) {
        List<Versioned<F>> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        for (String watchKey : kind.watchKeys(namespace)) {
            long left = waitMillis == 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            ViewStore<Object[]> store = kind.store(watchKey, left);
            if (store == null) {
                return Optional.empty();
            }
            out.addAll(found(store, namespace, keys));
        }
        return Optional.of(out);
    }

    @SuppressWarnings("unchecked")
    private List<Versioned<F>> found(ViewStore<Object[]> store, String namespace, Collection<String> keys) {
        Collection<String> wanted = keys == null ? List.of(SharedKind.present(facet))
                : keys.stream().map(k -> SharedKind.key(facet, k)).toList();
        List<Versioned<Object[]>> held = store.find(namespace, wanted);
        List<Versioned<F>> out = new ArrayList<>(held.size());
        for (Versioned<Object[]> v : held) {
            out.add(new Versioned<>(v.resourceVersion(), (F) v.view()[facet]));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private List<Versioned<F>> listed(String watchKey, String namespace, Collection<String> keys) {
        List<Versioned<F>> out = new ArrayList<>();
        for (Versioned<Object[]> views : kind.list(watchKey, namespace)) {
            F view = (F) views.view()[facet];
            if (view != null && (keys == null || !Collections.disjoint(kind.keysOf(facet, view), keys))) {
                out.add(new Versioned<>(views.resourceVersion(), view));
            }
        }
        return out;
    }
}
