package dev.rekon.buildpacks.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.plan.KpackStatus;

/**
 * The JSON merge patch a {@link KpackStatus.Patch} sends to a kpack object's status subresource: the fields it
 * sets in kpack's shape, {@code null} for those it drops, and the resourceVersion that guards it.
 */
public final class KpackStatusBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private KpackStatusBody() {
    }

    /** The whole body; {@code resourceVersion} null for an unguarded write. */
    public static ObjectNode of(KpackStatus.Patch patch, String resourceVersion) {
        ObjectNode body = JSON.createObjectNode();
        body.set("status", status(patch));
        if (resourceVersion != null) {
            body.putObject("metadata").put("resourceVersion", resourceVersion);
        }
        return body;
    }

    /** The patch of {@code status} alone. */
    public static ObjectNode status(KpackStatus.Patch patch) {
        ObjectNode status = JSON.createObjectNode();
        for (KpackStatus.Field field : KpackStatus.Field.values()) {
            Object value = field.of(patch.set());
            if (value != null) {
                status.set(field.json(), tree(value));
            } else if (patch.dropped().contains(field)) {
                status.putNull(field.json());
            }
        }
        return status;
    }

    /** {@code status} with the patch merged in, as the apiserver would keep it (a copy; null counts as empty). */
    public static ObjectNode merged(JsonNode status, KpackStatus.Patch patch) {
        ObjectNode merged = status instanceof ObjectNode o ? o.deepCopy() : JSON.createObjectNode();
        status(patch).fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                merged.remove(e.getKey());
            } else {
                merged.set(e.getKey(), e.getValue());
            }
        });
        return merged;
    }

    /** Through JSON text, so that numbers are the ints the API server answers (a patch equals its read-back). */
    private static JsonNode tree(Object value) {
        try {
            return JSON.readTree(JSON.writeValueAsBytes(value));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("status is not serializable", e);
        }
    }
}
