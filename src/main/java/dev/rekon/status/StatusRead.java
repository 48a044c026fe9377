package dev.rekon.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.rekon.cluster.watch.FacetViews;

/**
 * One status request's reads of the watch caches, sharing one deadline ({@link #LOADING_WAIT}), naming what is
 * still loading or could not be watched. No read here costs an API call.
 */
public final class StatusRead {

    /** How long a request waits for watches still listing before it answers that the page is loading. */
    static final Duration LOADING_WAIT = Duration.ofSeconds(2);

    private final long deadline;
    private final List<String> unavailable = new ArrayList<>();
    private final List<String> loading = new ArrayList<>();

    /** The watches have not listed everything yet: an empty picture now would not be the truth. */
    public static final class Loading extends RuntimeException {
        public Loading(List<String> kinds) {
            super("the status page is loading: still listing " + String.join(", ", kinds) + "; ask again in a moment");
        }
    }

    public StatusRead() {
        this(System.nanoTime() + LOADING_WAIT.toNanos());
    }

    StatusRead(long deadline) {
        this.deadline = deadline;
    }

    /** Every view the facet holds in the allowed namespaces ({@code what} names them in the page's words). */
    public <V> List<V> of(FacetViews<V> views, String what) {
        return views.report(what, unavailable, loading, deadline);
    }

    /** What could not be watched, in words. */
    List<String> unavailable() {
        return List.copyOf(unavailable);
    }

    /** @throws Loading naming the watches still listing */
    public void requireLoaded() {
        if (!loading.isEmpty()) {
            throw new Loading(loading);
        }
    }
}
