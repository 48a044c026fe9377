package dev.rekon.declared.watch;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.declared.intent.DeclaredStateView;

/**
 * The DeclaredStates as the loop reads them: from their one watch. A DeclaredState the watch does not hold yet,
 * or holds older than a version this process wrote or an event carried ({@link #seen}), is not answered, so the
 * caller reads it from the apiserver: a watch that lags never makes Rekon plan from a spec or status older than
 * one it knew. What is seen is kept by the watch's facet for a few seconds, so that a lost watch event cannot pin
 * live reads.
 */
@ApplicationScoped
public class DeclaredStates {

    static final long SYNC_WAIT_MILLIS = 10_000;

    @Inject
    SharedWatches watches;

    @Inject
    DeclaredStateFacet facet;

    /** The DeclaredState as its synced watch holds it, unless that may be older than what is known; else empty. */
    public Optional<DeclaredStateView> cached(String namespace, String name) {
        return watches.of(facet).latest(namespace, List.of(DeclaredStateFacet.nameKey(name)))
                .flatMap(held -> held.stream().findFirst());
    }

    /** The DeclaredState as its watch holds it now, however recent: the page's, which reads nothing else. */
    public Optional<DeclaredStateView> watched(String namespace, String name) {
        return watches.of(facet).cached(namespace, List.of(DeclaredStateFacet.nameKey(name)))
                .flatMap(l -> l.stream().findFirst()).map(Versioned::view);
    }

    /** Every DeclaredState in a namespace (null: everywhere Rekon may look), from the watch or, unsynced, a list. */
    public List<DeclaredStateView> all(String namespace) {
        return watches.of(facet).cachedOrListed(namespace, null).stream().map(Versioned::view).toList();
    }

    /**
     * The same for a reader off the event path (a resync pass), which may wait up to {@value #SYNC_WAIT_MILLIS} ms
     * for the watch to sync, so that the loads of its keys are then served from it.
     */
    public List<DeclaredStateView> allOffTheEventPath(String namespace) {
        return watches.of(facet).waiting(namespace, null, SYNC_WAIT_MILLIS).map(l -> l.stream().map(Versioned::view)
                .toList()).orElseGet(() -> all(namespace));
    }

    /** The {@code <namespace>/<name>} of every DeclaredState the synced watch holds, or empty while it has not. */
    public Optional<java.util.Set<String>> names(String namespace) {
        return watches.of(facet).cached(namespace, null).map(l -> l.stream().map(v -> v.view().namespace() + "/"
                + v.view().name()).collect(java.util.stream.Collectors.toSet()));
    }

    /** The DeclaredState exists at {@code resourceVersion} or later (null: at a version the watch may not hold). */
    public void seen(String namespace, String name, String resourceVersion) {
        watches.of(facet).seen(namespace, name, resourceVersion);
    }
}
