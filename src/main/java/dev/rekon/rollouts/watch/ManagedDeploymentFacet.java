package dev.rekon.rollouts.watch;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * Deployments as rollouts read them: a {@link DeploymentView} of each one labelled
 * {@code app.kubernetes.io/managed-by=rekon}, found by name; none for the others, which are read from the
 * apiserver when a rollout needs them.
 */
@Singleton
public class ManagedDeploymentFacet extends KindFacet<DeploymentView> {

    public static final WatchedKindId DEPLOYMENTS = WatchedKindId.namespaced("apps", "v1", "deployments", "Deployment");

    public ManagedDeploymentFacet() {
        super(DEPLOYMENTS);
    }

    @Override
    public DeploymentView view(JsonNode object) {
        boolean managed = "rekon".equals(object.path("metadata").path("labels").path(RolloutNames.MANAGED_BY).asText());
        return managed ? DeploymentView.fromJson(object) : null;
    }

    @Override
    public Collection<String> indexKeys(DeploymentView view) {
        return List.of(view.name());
    }
}
