package dev.rekon.promotions.view;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.ObjectRef;

/** A stage's PromotedImage as read: identity, the resourceVersion its status write is guarded by, and its status. */
public record PromotedImageView(String namespace, String name, String uid, String resourceVersion, long generation,
        PromotedImageStatus status) {

    public static PromotedImageView fromJson(JsonNode o) {
        JsonNode meta = o.path("metadata");
        return new PromotedImageView(meta.path("namespace").asText(null), meta.path("name").asText(null),
                meta.path("uid").asText(null), meta.path("resourceVersion").asText(null),
                meta.path("generation").asLong(0), PromotedImageStatus.of(o.get("status")));
    }

    public ObjectRef ref() {
        return PromotionNames.promoted(namespace, name);
    }
}
