package dev.rekon.rollouts.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

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
