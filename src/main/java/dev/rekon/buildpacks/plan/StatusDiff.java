package dev.rekon.buildpacks.plan;

import java.time.Instant;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;
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

    /** The current conditions with {@code set} applied in turn; lastTransitionTime kept while a status holds. */
    static ArrayNode conditions(JsonNode currentStatus, long generation, Instant now, Conditions.Condition... set) {
        JsonNode conditions = currentStatus == null ? null : currentStatus.get("conditions");
        ArrayNode out = null;
        for (Conditions.Condition c : set) {
            out = Conditions.set(out == null ? conditions : out, c, generation, now);
        }
        return out;
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
