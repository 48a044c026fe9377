package dev.rekon.rollouts.watch;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.rollouts.status.RolloutSection;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.status.StatusReport;

/**
 * What only the status page reads of a Deployment labelled {@code app.kubernetes.io/managed-by=rekon}: its
 * rollout progress, a facet of the one Deployment watch.
 */
@Singleton
public class DeploymentProgressFacet extends KindFacet<DeploymentProgressFacet.Progress> {

    /** One managed Deployment's progress. */
    public record Progress(String namespace, String name, RolloutSection.Progress progress) {
    }

    public DeploymentProgressFacet() {
        super(ManagedDeploymentFacet.DEPLOYMENTS);
    }

    @Override
    public Progress view(JsonNode d) {
        JsonNode meta = d.path("metadata");
        if (!"rekon".equals(meta.path("labels").path(RolloutNames.MANAGED_BY).asText())) {
            return null;
        }
        return new Progress(meta.path("namespace").asText(null), meta.path("name").asText(null), progress(d));
    }

    /** The replicas and the {@code Progressing} / {@code Available} conditions, as Kubernetes reports them. */
    public static RolloutSection.Progress progress(JsonNode d) {
        JsonNode s = d.path("status");
        JsonNode progressing = Conditions.find(s.path("conditions"), "Progressing");
        JsonNode available = Conditions.find(s.path("conditions"), "Available");
        return new RolloutSection.Progress(s.has("observedGeneration"), d.path("spec").path("replicas").asInt(1),
                s.path("updatedReplicas").asInt(0), s.path("readyReplicas").asInt(0), s.path("availableReplicas").asInt(0),
                text(progressing, "status"), text(progressing, "reason"), text(available, "status"),
                text(available, "reason"));
    }

    private static String text(JsonNode condition, String field) {
        return condition == null ? null : condition.path(field).asText(null);
    }
}
