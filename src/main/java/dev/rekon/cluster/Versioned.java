package dev.rekon.cluster;

/** What a reader keeps of one object: its view, and the resourceVersion the view was made from. */
public record Versioned<V>(String resourceVersion, V view) {
}
