package dev.rekon.cluster;

import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

/** What a reader keeps of one object: its view, and the resourceVersion the view was made from. */
public record Versioned<V>(String resourceVersion, V view) {

    /** The view of an object as the apiserver answered it, with the resourceVersion of that answer. */
    public static <V> Versioned<V> of(JsonNode object, Function<JsonNode, V> view) {
        return new Versioned<>(object.path("metadata").path("resourceVersion").asText(null), view.apply(object));
    }
}
