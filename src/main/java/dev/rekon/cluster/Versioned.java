package dev.rekon.cluster;

import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

/** What a reader keeps of one object: its view, and the resourceVersion the view was made from. */
public record Versioned<V>(String resourceVersion, V view) {

    /** The view of an object as the apiserver answered it, with the resourceVersion of that answer. */
    public static <V> Versioned<V> of(JsonNode object, Function<JsonNode, V> view) {
        return new Versioned<>(object.path("metadata").path("resourceVersion").asText(null), view.apply(object));
    }

    /**
     * Whether the watched version is older than the known one. Versions are compared as numbers where they are
     * numbers (as etcd's are); otherwise any other version than the known one counts as older, and so does any
     * version when either is unknown.
     */
    public static boolean olderThan(String watched, String known) {
        if (known == null || watched == null) {
            return true;
        }
        try {
            return Long.parseLong(watched) < Long.parseLong(known);
        } catch (NumberFormatException e) {
            return !watched.equals(known);
        }
    }
}
