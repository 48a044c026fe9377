package dev.rekon.rollouts.apply;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.JsonEquality;

import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.ImageDeployStatus;

/**
 * The status subresource an {@link ImageDeployStatus} makes of the one the ImageDeploy has: that status with the
 * fields the plan decides set (a null one kept as it is, an empty {@code waiting} removed), and the JSON merge patch
 * that writes only what changes.
 */
public final class ImageDeployStatusBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ImageDeployStatusBody() {
    }

    /** {@code current} is the status the plan was made from. */
    public static ObjectNode of(JsonNode current, ImageDeployStatus status) {
        ObjectNode next = current.isObject() ? ((ObjectNode) current).deepCopy() : JSON.createObjectNode();
        if (status.observedGeneration() != null) {
            next.put("observedGeneration", status.observedGeneration());
        }
        if (status.deployment() != null) {
            next.put("deployment", status.deployment());
        }
        if (status.images() != null) {
            next.set("images", entries(status.images()));
        }
        if (status.waiting() != null) {
            next.remove("waiting");
            if (!status.waiting().isEmpty()) {
                next.set("waiting", entries(status.waiting()));
            }
        }
        if (status.conditions() != null) {
            next.set("conditions", JSON.valueToTree(status.conditions()));
        }
        if (status.history() != null) {
            ArrayNode history = JSON.createArrayNode();
            status.history().forEach(r -> history.add(r.toJson()));
            next.set("history", history);
        }
        return next;
    }

    /**
     * The JSON merge patch (RFC 7386) from {@code current} to {@link #of}: each top-level field that changes, whole
     * (a merge patch replaces arrays whole), and null for one removed; empty when nothing changes.
     */
    public static ObjectNode patch(JsonNode current, ImageDeployStatus status) {
        ObjectNode next = of(current, status);
        ObjectNode patch = JSON.createObjectNode();
        next.fields().forEachRemaining(f -> {
            JsonNode was = current.get(f.getKey());
            if (was == null || !JsonEquality.same(was, f.getValue())) {
                patch.set(f.getKey(), f.getValue());
            }
        });
        current.fieldNames().forEachRemaining(name -> {
            if (!next.has(name)) {
                patch.putNull(name);
            }
        });
        return patch;
    }

    private static ArrayNode entries(List<AppliedImage> images) {
        ArrayNode out = JSON.createArrayNode();
        images.forEach(a -> out.add(a.toJson()));
        return out;
    }
}
