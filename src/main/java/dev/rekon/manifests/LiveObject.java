package dev.rekon.manifests;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

/**
 * An object of a manifest or an inventory as the cluster has it: the owner its owner label names (a module, a
 * DeclaredState; null when it carries none: someone else's), and the object itself, for the drift check and for
 * the uid and resourceVersion a delete of it is guarded by.
 */
public record LiveObject(ObjectRef ref, String owner, ObjectNode object) {

    public String uid() {
        return object == null ? null : object.path("metadata").path("uid").asText(null);
    }

    public String resourceVersion() {
        return object == null ? null : object.path("metadata").path("resourceVersion").asText(null);
    }
}
