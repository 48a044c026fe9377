package dev.rekon.rollouts.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.Conditions;

/**
 * An ImageDeploy's status, as read or as a rollout plan writes it: the generation it was decided for, the
 * Deployment, the builds applied ({@code images}), the builds that wait while suspended, the conditions, and the
 * completed rollouts, newest first ({@code history}, see {@link RolloutRecord}). In a
 * status a plan writes, a null field is left as the ImageDeploy has it, and an empty {@code waiting} removes the
 * list; read, a null field is one the status does not have.
 */
public record ImageDeployStatus(Long observedGeneration, String deployment, List<AppliedImage> images,
        List<AppliedImage> waiting, List<Conditions.Written> conditions, List<RolloutRecord> history) {

    public ImageDeployStatus(Long observedGeneration, String deployment, List<AppliedImage> images,
            List<AppliedImage> waiting, List<Conditions.Written> conditions) {
        this(observedGeneration, deployment, images, waiting, conditions, null);
    }

    /** The status as the ImageDeploy holds it (fields of another type than the schema's count as absent). */
    public static ImageDeployStatus of(JsonNode status) {
        JsonNode generation = status.path("observedGeneration");
        JsonNode deployment = status.path("deployment");
        JsonNode conditions = status.path("conditions");
        return new ImageDeployStatus(generation.canConvertToLong() ? generation.asLong() : null,
                deployment.isTextual() ? deployment.textValue() : null, entries(status.path("images")),
                entries(status.path("waiting")), conditions.isArray() ? Conditions.read(conditions) : null,
                history(status.path("history")));
    }

    /**
     * What of {@code status} this reading of it does not hold: its fields of another name than the schema's, or of
     * another type (an ImageDeploy of another group may have them); null when none, as Rekon's schema allows no
     * others.
     */
    public ObjectNode untyped(JsonNode status) {
        if (!status.isObject()) {
            return null;
        }
        ObjectNode rest = ((ObjectNode) status).deepCopy();
        if (observedGeneration != null) {
            rest.remove("observedGeneration");
        }
        if (deployment != null) {
            rest.remove("deployment");
        }
        if (images != null) {
            rest.remove("images");
        }
        if (waiting != null) {
            rest.remove("waiting");
        }
        if (conditions != null) {
            rest.remove("conditions");
        }
        if (history != null) {
            rest.remove("history");
        }
        return rest.isEmpty() ? null : rest;
    }

    /**
     * The status as the ImageDeploy holds it, from this reading: its fields as the schema writes them, numbers that
     * fit an int as ints (so a tree read from the same text equals it), and no field for a null.
     */
    public ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode out = f.objectNode();
        if (observedGeneration != null) {
            out.set("observedGeneration", number(observedGeneration));
        }
        if (deployment != null) {
            out.put("deployment", deployment);
        }
        if (images != null) {
            out.set("images", entries(images));
        }
        if (waiting != null) {
            out.set("waiting", entries(waiting));
        }
        if (history != null) {
            ArrayNode list = out.putArray("history");
            history.forEach(r -> list.add(r.toJson()));
        }
        if (conditions != null) {
            ArrayNode list = out.putArray("conditions");
            for (Conditions.Written c : conditions) {
                ObjectNode n = list.addObject();
                putText(n, "type", c.type());
                putText(n, "status", c.status());
                putText(n, "reason", c.reason());
                putText(n, "message", c.message());
                if (c.observedGeneration() != null) {
                    n.set("observedGeneration", number(c.observedGeneration()));
                }
                putText(n, "lastTransitionTime", c.lastTransitionTime());
                putText(n, "severity", c.severity());
            }
        }
        return out;
    }

    private static ArrayNode entries(List<AppliedImage> list) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (AppliedImage a : list) {
            ObjectNode n = a.toJson();
            if (a.buildCounter() != null) {
                n.set("buildCounter", number(a.buildCounter()));
            }
            out.add(n);
        }
        return out;
    }

    private static JsonNode number(long value) {
        return value == (int) value ? JsonNodeFactory.instance.numberNode((int) value)
                : JsonNodeFactory.instance.numberNode(value);
    }

    private static void putText(ObjectNode n, String field, String value) {
        if (value != null) {
            n.put(field, value);
        }
    }

    private static List<RolloutRecord> history(JsonNode list) {
        if (!list.isArray()) {
            return null;
        }
        List<RolloutRecord> out = new ArrayList<>();
        list.forEach(n -> out.add(RolloutRecord.fromJson(n)));
        return List.copyOf(out);
    }

    private static List<AppliedImage> entries(JsonNode list) {
        if (!list.isArray()) {
            return null;
        }
        List<AppliedImage> out = new ArrayList<>();
        list.forEach(n -> out.add(AppliedImage.fromJson(n)));
        return List.copyOf(out);
    }

    /** The condition of that type, or null. */
    public Conditions.Written condition(String type) {
        return conditions == null ? null
                : conditions.stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }

    /** This status with these conditions. */
    public ImageDeployStatus withConditions(List<Conditions.Written> set) {
        return new ImageDeployStatus(observedGeneration, deployment, images, waiting, set, history);
    }

    /** Whether writing this status over {@code current} leaves it as it is. */
    public boolean sameAs(ImageDeployStatus current) {
        return (observedGeneration == null || observedGeneration.equals(current.observedGeneration))
                && (deployment == null || deployment.equals(current.deployment))
                && (images == null || images.equals(current.images))
                && (waiting == null || Objects.equals(waiting.isEmpty() ? null : waiting, current.waiting))
                && (conditions == null || conditions.equals(current.conditions))
                && (history == null || history.equals(current.history));
    }
}
