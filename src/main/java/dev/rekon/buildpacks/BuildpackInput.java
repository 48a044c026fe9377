package dev.rekon.buildpacks;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.registry.ImageReference;

/** What a buildpack event asks {@link BuildpackService} to bring in line, parsed and guarded by {@link BuildpackFunctions}. */
public sealed interface BuildpackInput {

    /**
     * A Buildpack or ClusterBuildpack was added, updated or deleted; {@code before} is the object the event
     * carried on a delete (Resource mode), else null.
     */
    record BuildpackChanged(String kind, String namespace, String name, JsonNode before) implements BuildpackInput {
    }

    /** A Builder or ClusterBuilder was added or updated. */
    record BuilderChanged(String kind, String namespace, String name) implements BuildpackInput {
    }

    /** A Builder or ClusterBuilder was deleted: nothing to resolve. */
    record BuilderDeleted(String kind, String namespace, String name) implements BuildpackInput {
    }

    /** A buildpackage image was pushed (the manual event, or a registry webhook). */
    record Published(ImageReference image) implements BuildpackInput {
    }
}
