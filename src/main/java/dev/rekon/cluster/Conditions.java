package dev.rekon.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.runtime.annotations.RegisterForReflection;

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

    /**
     * A condition as a status holds it: metav1.Condition's fields, and kpack's {@code severity}, so that a kpack
     * condition passes through whole; {@code observedGeneration} and {@code severity} are null on one written
     * without them.
     */
    @RegisterForReflection
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({ "type", "status", "reason", "message", "observedGeneration", "lastTransitionTime",
            "severity" })
    public record Written(String type, String status, String reason, String message, Long observedGeneration,
            String lastTransitionTime, String severity) {

        static Written of(JsonNode c) {
            JsonNode gen = c.get("observedGeneration");
            return new Written(c.path("type").asText(null), c.path("status").asText(null),
                    c.path("reason").asText(null), c.path("message").asText(null),
                    gen == null || gen.isNull() ? null : gen.asLong(), c.path("lastTransitionTime").asText(null),
                    c.path("severity").asText(null));
        }
    }

    /** The conditions of a status as read (none when it has no array). */
    public static List<Written> read(JsonNode conditions) {
        List<Written> out = new ArrayList<>();
        if (conditions != null && conditions.isArray()) {
            conditions.forEach(c -> out.add(Written.of(c)));
        }
        return out;
    }

    /**
     * Returns a copy of {@code conditions} (null: none) with {@code c} set; other types are kept as they are.
     */
    public static List<Written> set(List<Written> conditions, Condition c, long observedGeneration, Instant now) {
        List<Written> out = new ArrayList<>();
        boolean found = false;
        for (Written existing : conditions == null ? List.<Written>of() : conditions) {
            if (c.type().equals(existing.type())) {
                String kept = existing.lastTransitionTime() != null && Objects.equals(existing.status(), c.status())
                        ? existing.lastTransitionTime() : now.toString();
                out.add(new Written(c.type(), c.status(), c.reason(), c.message(), observedGeneration, kept, null));
                found = true;
            } else {
                out.add(existing);
            }
        }
        if (!found) {
            out.add(new Written(c.type(), c.status(), c.reason(), c.message(), observedGeneration, now.toString(),
                    null));
        }
        return List.copyOf(out);
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
}
