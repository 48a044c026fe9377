package dev.rekon.cluster.watch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.rekon.cluster.Versioned;

/**
 * What this process last read or wrote of objects, for the moment until their watch delivers it: it stands in
 * for the watch's view until the watch shows the same or a later resourceVersion, so that a cache that lags
 * never answers older than what an event already knew. A null view records a deletion. Entries end after
 * 10 s whatever the watch shows, so a lost watch event cannot pin an old state.
 */
final class LatestKnown<V> {

    private static final long KEEP_MILLIS = 10_000;

    private final Function<V, String> keyOf;
    private final Map<String, Known<V>> known = new ConcurrentHashMap<>();

    private record Known<V>(String resourceVersion, V view, long at) {
    }

    /** @param keyOf the same key for the view of one object, whoever made it */
    LatestKnown(Function<V, String> keyOf) {
        this.keyOf = keyOf;
    }

    /** Records the object at {@code resourceVersion} as {@code view}, or as deleted when the view is null. */
    void put(String key, String resourceVersion, V view) {
        forgetExpired();
        known.put(key, new Known<>(resourceVersion, view, System.currentTimeMillis()));
    }

    /**
     * The watch's views with what is known to be newer in their place: a newer view replaces the watched one,
     * a deletion drops it, and a known object of {@code inScope} that the watch does not show yet is added.
     */
    List<V> over(List<Versioned<V>> watched, Predicate<V> inScope) {
        forgetExpired();
        if (known.isEmpty()) {
            return watched.stream().map(Versioned::view).toList();
        }
        Map<String, V> views = new LinkedHashMap<>();
        for (Versioned<V> w : watched) {
            String key = keyOf.apply(w.view());
            Known<V> k = known.get(key);
            if (k == null || !Versioned.olderThan(w.resourceVersion(), k.resourceVersion())) {
                views.put(key, w.view());
                if (k != null) {
                    known.remove(key, k);
                }
            } else if (k.view() != null) {
                views.put(key, k.view());
            }
        }
        known.forEach((key, k) -> {
            if (k.view() != null && inScope.test(k.view())) {
                views.putIfAbsent(key, k.view());
            }
        });
        return List.copyOf(views.values());
    }


    /** The view known at a later version than {@code resourceVersion}; null when none is, or the object is deleted. */
    V newer(String key, String resourceVersion) {
        forgetExpired();
        Known<V> k = known.get(key);
        return k != null && Versioned.olderThan(resourceVersion, k.resourceVersion()) ? k.view() : null;
    }

    private void forgetExpired() {
        long oldest = System.currentTimeMillis() - KEEP_MILLIS;
        known.values().removeIf(k -> k.at() < oldest);
    }
}
