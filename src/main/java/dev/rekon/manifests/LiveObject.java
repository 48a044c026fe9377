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

    /**
     * What is kept of an object read or listed and held after its attempt: all of it but its managedFields, which
     * nothing of Rekon reads and which are most of an object's metadata (a tree of every field each manager set);
     * an object without them is kept as it is. This object is not changed.
     */
    public LiveObject lean() {
        if (object == null || !(object.get("metadata") instanceof ObjectNode meta) || !meta.has("managedFields")) {
            return this;
        }
        ObjectNode out = object.objectNode();
        object.properties().forEach(e -> {
            if (e.getValue() == meta) {
                ObjectNode m = out.putObject(e.getKey());
                meta.properties().stream().filter(f -> !f.getKey().equals("managedFields"))
                        .forEach(f -> m.set(f.getKey(), f.getValue().deepCopy()));
            } else {
                out.set(e.getKey(), e.getValue().deepCopy());
            }
        });
        return new LiveObject(ref, owner, out);
    }
}
