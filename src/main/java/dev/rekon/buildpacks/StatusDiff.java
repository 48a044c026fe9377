package dev.rekon.buildpacks;

import java.time.Instant;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

/**
 * Compares the status fields Rekon owns with the object's current status and decides whether to write.
 * A condition keeps its {@code lastTransitionTime} while its status stays the same, so re-deciding the same
 * thing writes nothing.
 */
final class StatusDiff {

    static final ObjectMapper JSON = new ObjectMapper();

    private StatusDiff() {
    }

    static StatusPlan plan(ObjectRef target, JsonNode current, Object desiredValue, Set<String> owned, String reason,
            String message) {
        ObjectNode desired = normalized(desiredValue);
        ObjectNode patch = JSON.createObjectNode();
        for (String field : owned) {
            JsonNode want = desired.get(field);
            JsonNode have = current == null ? null : current.get(field);
            if (want == null && have != null && !have.isNull()) {
                patch.putNull(field);
            } else if (want != null && !want.equals(have)) {
                patch.set(field, want);
            }
        }
        return patch.isEmpty() ? new StatusPlan.NoChange(target, "StatusUpToDate", target + " already shows this: " + message)
                : new StatusPlan.Write(target, patch, reason, message);
    }

    /** One condition node, keeping the current lastTransitionTime when the status did not change. */
    static ObjectNode condition(JsonNode currentStatus, String type, boolean ok, String reason, String message,
            long generation, Instant now) {
        String status = ok ? "True" : "False";
        String since = now.toString();
        for (JsonNode c : currentStatus == null ? JSON.createArrayNode() : currentStatus.path("conditions")) {
            if (type.equals(c.path("type").asText()) && status.equals(c.path("status").asText())
                    && c.hasNonNull("lastTransitionTime")) {
                since = c.get("lastTransitionTime").asText();
            }
        }
        ObjectNode c = JSON.createObjectNode();
        c.put("type", type).put("status", status).put("reason", reason);
        if (message != null && !message.isEmpty()) {
            c.put("message", message);
        }
        c.put("lastTransitionTime", since).put("observedGeneration", generation);
        return c;
    }

    static ArrayNode array(ObjectNode... items) {
        ArrayNode a = JSON.createArrayNode();
        for (ObjectNode i : items) {
            a.add(i);
        }
        return a;
    }

    /** Round-trips through JSON text so that numbers compare equal to what the API server returns. */
    private static ObjectNode normalized(Object value) {
        try {
            return (ObjectNode) JSON.readTree(JSON.writeValueAsBytes(value));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("status is not serializable", e);
        }
    }
}
