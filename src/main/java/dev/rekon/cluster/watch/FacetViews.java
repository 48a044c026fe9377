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
 * where no watch can run, {@link #cachedOrListed} lists as reads did before watches. What this process wrote or read
 * of an object stands in for the watch's view until the watch shows it ({@link #wrote}, {@link #seen},
 * {@link #latest}): an area keeps no copy of a watched kind of its own.
 */
public final class FacetViews<F> {

    private final SharedKind kind;
    private final int facet;

    /** What this process knows of one object: its view (null: deleted), or only that it exists at a version. */
    record Known<F>(String key, String namespace, F view, boolean viewKnown) {
    }

    FacetViews(SharedKind kind, int facet) {
        this.kind = kind;
        this.facet = facet;
    }

    /**
     * The views in {@code namespace} (null: every namespace Rekon may look in, or all of a cluster-scoped kind)
     * under one of {@code keys} (null: all), from synced watches only; empty when one of them has not synced.
     */
    public Optional<List<Versioned<F>>> cached(String namespace, Collection<String> keys) {
        return read(namespace, keys, 0).map(FacetViews::versioned);
    }

    /** The same, waiting up to {@code waitMillis} in all for watches still starting. */
    public Optional<List<Versioned<F>>> waiting(String namespace, Collection<String> keys, long waitMillis) {
        ColdStartGate.watchesNeeded();
        return read(namespace, keys, Math.max(1, waitMillis)).map(FacetViews::versioned);
    }

    /** The same from the watches where they have synced, and from a list where they have not. */
    public List<Versioned<F>> cachedOrListed(String namespace, Collection<String> keys) {
        return versioned(found(namespace, keys));
    }

    /**
     * The views in {@code namespace} (null: every namespace Rekon may look in) as the apiserver holds them now, one
     * list per watch scope, for a reader that must not miss a change its watch has yet to deliver.
     */
    public List<Versioned<F>> listed(String namespace) {
        List<ViewStore.Found<F>> out = new ArrayList<>();
        kind.watchKeys(namespace).forEach(watchKey -> out.addAll(listed(watchKey, namespace, null)));
        return versioned(out);
    }

    /**
     * The object {@code name} in {@code namespace} (null: a cluster-scoped one) from a watch of it alone, for an
     * object Rekon may watch by its name only (a Role's {@code resourceNames}): a list of its view, or none (no such
     * object, or none this facet reads); empty while that watch cannot tell (starting, refused, failed a moment ago),
     * and then the caller reads it. The watch starts on the first such read, in the background.
     */
    public Optional<List<Versioned<F>>> named(String namespace, String name) {
        ViewStore<Object[]> store = kind.named(namespace, name);
        return store == null ? Optional.empty() : Optional.of(versioned(found(store, namespace, null)));
    }

    /** Records this process's write of an object, as the apiserver answered it; a null view records its deletion. */
    public void wrote(String namespace, String name, String resourceVersion, F view) {
        String key = ViewStore.keyOf(namespace, name);
        known().put(key, resourceVersion, view == null ? null : new Known<>(key, namespace, view, true));
    }

    /**
     * Records that the object exists at {@code resourceVersion} or later (null: at a version the watch may not hold
     * yet), its view unknown: until the watch shows that version, {@link #latest} answers empty where it would
     * answer the object, and the caller reads it from the apiserver.
     */
    public void seen(String namespace, String name, String resourceVersion) {
        String key = ViewStore.keyOf(namespace, name);
        known().put(key, resourceVersion, new Known<>(key, namespace, null, false));
    }

    /**
     * {@link #cached}, each view as this process last wrote it where that is newer than what the watch shows; empty
     * also when the watch may hold an object older than a version this process has {@link #seen}.
     */
    public Optional<List<F>> latest(String namespace, Collection<String> keys) {
        return read(namespace, keys, 0).flatMap(found -> over(found, namespace, keys, false));
    }

    /** The same, with the objects this process wrote under those keys that the watch does not show yet. */
    public Optional<List<F>> latestWithUnseen(String namespace, Collection<String> keys) {
        return read(namespace, keys, 0).flatMap(found -> over(found, namespace, keys, true));
    }

    /** {@link #latestWithUnseen} from the watches where they have synced, and from a list where they have not. */
    public List<F> latestOrListed(String namespace, Collection<String> keys) {
        return over(found(namespace, keys), namespace, keys, true).orElseGet(() -> listed(namespace).stream()
                .map(Versioned::view).filter(v -> keys == null || !Collections.disjoint(kind.keysOf(facet, v), keys))
                .toList());
    }

    /** The view this process wrote of the object, when newer than {@code resourceVersion} and not yet watched. */
    public Optional<F> writtenAfter(String namespace, String name, String resourceVersion) {
        Known<F> newer = known().newer(ViewStore.keyOf(namespace, name), resourceVersion);
        return newer == null || !newer.viewKnown() ? Optional.empty() : Optional.of(newer.view());
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
                found(store, null, null).forEach(v -> out.add(v.versioned().view()));
            }
        }
        return out;
    }

    private Optional<List<ViewStore.Found<F>>> read(String namespace, Collection<String> keys, long waitMillis) {
        List<ViewStore.Found<F>> out = new ArrayList<>();
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

    private List<ViewStore.Found<F>> found(String namespace, Collection<String> keys) {
        List<ViewStore.Found<F>> out = new ArrayList<>();
        for (String watchKey : kind.watchKeys(namespace)) {
            ViewStore<Object[]> store = kind.store(watchKey, 0);
            out.addAll(store != null ? found(store, namespace, keys) : listed(watchKey, namespace, keys));
        }
        return out;
    }

    /** The watched views with what this process knows newer in their place; empty when a newer view is unknown. */
    private Optional<List<F>> over(List<ViewStore.Found<F>> watched, String namespace, Collection<String> keys,
            boolean unseen) {
        List<Versioned<Known<F>>> held = watched.stream().map(f -> new Versioned<>(f.versioned().resourceVersion(),
                new Known<>(f.key(), null, f.versioned().view(), true))).toList();
        List<Known<F>> latest = known().over(held, k -> unseen && k.viewKnown()
                && (namespace == null || namespace.equals(k.namespace()))
                && (keys == null || !Collections.disjoint(kind.keysOf(facet, k.view()), keys)));
        return latest.stream().allMatch(Known::viewKnown) ? Optional.of(latest.stream().map(Known::view).toList())
                : Optional.empty();
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private LatestKnown<Known<F>> known() {
        return (LatestKnown) kind.known(facet);
    }

    @SuppressWarnings("unchecked")
    private List<ViewStore.Found<F>> found(ViewStore<Object[]> store, String namespace, Collection<String> keys) {
        Collection<String> wanted = keys == null ? List.of(SharedKind.present(facet))
                : keys.stream().map(k -> SharedKind.key(facet, k)).toList();
        List<ViewStore.Found<Object[]>> held = store.find(namespace, wanted);
        List<ViewStore.Found<F>> out = new ArrayList<>(held.size());
        for (ViewStore.Found<Object[]> v : held) {
            out.add(new ViewStore.Found<>(v.key(), new Versioned<>(v.versioned().resourceVersion(),
                    (F) v.versioned().view()[facet])));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private List<ViewStore.Found<F>> listed(String watchKey, String namespace, Collection<String> keys) {
        List<ViewStore.Found<F>> out = new ArrayList<>();
        for (ViewStore.Found<Object[]> views : kind.list(watchKey, namespace)) {
            F view = (F) views.versioned().view()[facet];
            if (view != null && (keys == null || !Collections.disjoint(kind.keysOf(facet, view), keys))) {
                out.add(new ViewStore.Found<>(views.key(), new Versioned<>(views.versioned().resourceVersion(), view)));
            }
        }
        return out;
    }

    private static <F> List<Versioned<F>> versioned(List<ViewStore.Found<F>> found) {
        return found.stream().map(ViewStore.Found::versioned).toList();
    }
}
