package dev.rekon.declared.plan;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.manifests.LiveObject;

/**
 * Whether an applied object is ready, as kstatus reads it: a Deployment, StatefulSet or DaemonSet rolled out (its
 * controller saw this generation and every replica is updated and available), a Job complete, a CRD Established;
 * any other kind is ready once it exists.
 */
public final class Health {

    private Health() {
    }

    /** Null when ready, else what it waits for. */
    public static String waitingFor(LiveObject o) {
        JsonNode obj = o.object();
        JsonNode status = obj.path("status");
        long generation = obj.path("metadata").path("generation").asLong(0);
        boolean observed = status.path("observedGeneration").asLong(-1) >= generation;
        return switch (o.ref().kind()) {
            case "Deployment" -> {
                long want = obj.path("spec").path("replicas").asLong(1);
                yield observed && status.path("updatedReplicas").asLong(0) >= want
                        && status.path("availableReplicas").asLong(0) >= want
                        && status.path("replicas").asLong(0) <= want ? null
                                : "rolling out (" + status.path("availableReplicas").asLong(0) + "/" + want + " available)";
            }
            case "StatefulSet" -> {
                long want = obj.path("spec").path("replicas").asLong(1);
                yield observed && status.path("readyReplicas").asLong(0) >= want
                        && status.path("updatedReplicas").asLong(0) >= want ? null
                                : "rolling out (" + status.path("readyReplicas").asLong(0) + "/" + want + " ready)";
            }
            case "DaemonSet" -> {
                long want = status.path("desiredNumberScheduled").asLong(0);
                yield observed && status.path("numberReady").asLong(0) >= want
                        && status.path("updatedNumberScheduled").asLong(0) >= want ? null
                                : "rolling out (" + status.path("numberReady").asLong(0) + "/" + want + " ready)";
            }
            case "Job" -> Conditions.isTrue(status.path("conditions"), "Complete") ? null : "not complete";
            case "CustomResourceDefinition" ->
                Conditions.isTrue(status.path("conditions"), "Established") ? null : "not Established";
            default -> null;
        };
    }

    /** Kinds whose readiness is read from their status: newly applied ones roll out before they are ready. */
    public static boolean hasRollout(String kind) {
        return switch (kind) {
            case "Deployment", "StatefulSet", "DaemonSet", "Job" -> true;
            default -> false;
        };
    }
}
