package dev.rekon.promotions.view;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.ObjectRef;

/**
 * An ImagePromotion as the planner reads it: identity and version for guarded writes, the typed spec and the
 * status as read. Made once from the object ({@link #fromJson}), the one place its JSON paths live.
 */
public record ImagePromotionView(String namespace, String name, String uid, String resourceVersion, long generation,
        ImagePromotionSpec spec, PromotionStatus status) {

    public static ImagePromotionView fromJson(JsonNode o) {
        JsonNode meta = o.path("metadata");
        return new ImagePromotionView(meta.path("namespace").asText(null), meta.path("name").asText(null),
                meta.path("uid").asText(null), meta.path("resourceVersion").asText(null),
                meta.path("generation").asLong(0), ImagePromotionSpec.of(o.path("spec")),
                PromotionStatus.of(o.get("status")));
    }

    public ObjectRef ref() {
        return PromotionNames.promotion(namespace, name);
    }
}
