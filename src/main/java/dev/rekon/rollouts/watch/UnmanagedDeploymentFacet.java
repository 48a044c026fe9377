package dev.rekon.rollouts.watch;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * Deployments Rekon does not manage (no label {@code app.kubernetes.io/managed-by=rekon}), a facet of the one
 * Deployment watch, found by name: a rollout that would create a Deployment under a name one of them holds plans
 * the conflict from this view, so the page, a report and the write say the same without a read per request.
 */
@Singleton
public class UnmanagedDeploymentFacet extends KindFacet<DeploymentView> {

    public UnmanagedDeploymentFacet() {
        super(ManagedDeploymentFacet.DEPLOYMENTS);
    }

    @Override
    public DeploymentView view(JsonNode object) {
        boolean managed = "rekon".equals(object.path("metadata").path("labels").path(RolloutNames.MANAGED_BY).asText());
        return managed ? null : DeploymentView.fromJson(object);
    }

    @Override
    public Collection<String> indexKeys(DeploymentView view) {
        return List.of(view.name());
    }
}
