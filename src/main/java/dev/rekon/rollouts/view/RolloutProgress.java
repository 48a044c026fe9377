package dev.rekon.rollouts.view;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;

/**
 * How far a Deployment's rollout has got, as its controller reports it in {@code status}: the generation it has
 * observed against the one it has, the replicas wanted ({@code spec.replicas}, 1 when absent, as Kubernetes
 * defaults it), those that exist, are updated and are available, and its {@code Progressing} condition.
 */
public record RolloutProgress(long generation, Long observedGeneration, int replicas, int statusReplicas,
        int updatedReplicas, int availableReplicas, String progressingStatus, String progressingReason,
        String progressingMessage) {

    /** The progress of a Deployment as read or watched; null when the object carries no generation to judge by. */
    public static RolloutProgress of(JsonNode d) {
        JsonNode generation = d.path("metadata").path("generation");
        if (!generation.canConvertToLong()) {
            return null;
        }
        JsonNode s = d.path("status");
        JsonNode replicas = d.path("spec").path("replicas");
        JsonNode progressing = Conditions.find(s.path("conditions"), "Progressing");
        return new RolloutProgress(generation.asLong(), s.path("observedGeneration").canConvertToLong()
                ? s.path("observedGeneration").asLong() : null, replicas.canConvertToInt() ? replicas.asInt() : 1,
                s.path("replicas").asInt(0), s.path("updatedReplicas").asInt(0), s.path("availableReplicas").asInt(0),
                text(progressing, "status"), text(progressing, "reason"), text(progressing, "message"));
    }

    private static String text(JsonNode condition, String field) {
        return condition == null ? null : condition.path(field).asText(null);
    }
}
