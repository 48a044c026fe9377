package dev.rekon.cluster;

import java.time.Instant;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Kubernetes-style conditions in a status array. Setting a condition keeps its lastTransitionTime when
 * its status does not change, so that the same outcome twice produces an identical status (no write).
 */
public final class Conditions {

    private Conditions() {
    }

    /** A condition to set; status is "True", "False" or "Unknown". */
    public record Condition(String type, String status, String reason, String message) {

        public static Condition isTrue(String type, String reason, String message) {
            return new Condition(type, "True", reason, message);
        }

        public static Condition isFalse(String type, String reason, String message) {
            return new Condition(type, "False", reason, message);
        }
    }

    /** Returns a copy of {@code conditions} with {@code c} set; other types are kept as they are. */
    public static ArrayNode set(JsonNode conditions, Condition c, long observedGeneration, Instant now) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        boolean found = false;
        if (conditions != null && conditions.isArray()) {
            for (JsonNode existing : conditions) {
                if (c.type().equals(existing.path("type").asText())) {
                    out.add(build(c, observedGeneration, transitionTime(existing, c, now)));
                    found = true;
                } else {
                    out.add(existing.deepCopy());
                }
            }
        }
        if (!found) {
            out.add(build(c, observedGeneration, now.toString()));
        }
        return out;
    }

    public static JsonNode find(JsonNode conditions, String type) {
        if (conditions != null && conditions.isArray()) {
            for (JsonNode c : conditions) {
                if (type.equals(c.path("type").asText())) {
                    return c;
                }
            }
        }
        return null;
    }

    public static boolean isTrue(JsonNode conditions, String type) {
        JsonNode c = find(conditions, type);
        return c != null && "True".equals(c.path("status").asText());
    }

    private static String transitionTime(JsonNode existing, Condition c, Instant now) {
        String previous = existing.path("lastTransitionTime").asText(null);
        return previous != null && Objects.equals(existing.path("status").asText(), c.status()) ? previous
                : now.toString();
    }

    private static ObjectNode build(Condition c, long observedGeneration, String lastTransitionTime) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("type", c.type());
        n.put("status", c.status());
        n.put("reason", c.reason());
        n.put("message", c.message());
        n.put("observedGeneration", observedGeneration);
        n.put("lastTransitionTime", lastTransitionTime);
        return n;
    }
}
