package dev.rekon.cluster.watch;

import java.util.Collection;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one area keeps of each object of a kind it reads: its view, made once when the watch delivers the object,
 * and the keys it is found by. Every facet of a kind is held by the one watch of that kind ({@link SharedWatches}),
 * so however many areas read ImageDeploys or Deployments, the apiserver sees one watch of each per scope.
 * Facets are beans, found when the kind's watch is first made, so each must be cheap and pure.
 *
 * @param <F> the view; null for an object that is none of this area's business (it is then not held for it)
 */
public interface WatchFacet<F> {

    WatchedKindId kind();

    /** The view of one object as the watch delivered it, or null when this area does not read it. */
    F view(JsonNode object);

    /**
     * Told, on the watch's thread, once the view of an object is held: {@code before} null when newly held,
     * {@code after} null when gone. Nothing by default; a facet whose area follows changes only hands work on
     * (to the loop's queue), never waits or calls the apiserver here.
     */
    default void changed(F before, F after) {
    }

    /** The keys the view is found by; none by default. */
    default Collection<String> indexKeys(F view) {
        return List.of();
    }
}
