package dev.rekon.rollouts.watch;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.rollouts.FollowedDeployments;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * Deployments as rollouts read them: a {@link DeploymentView} of each one labelled
 * {@code app.kubernetes.io/managed-by=rekon}, found by name; none for the others, which are read from the
 * apiserver when a rollout needs them. A change of one is handed to {@link FollowedDeployments}, which decides
 * whether its ImageDeploy's status must follow.
 */
@Singleton
public class ManagedDeploymentFacet extends KindFacet<DeploymentView> {

    public static final WatchedKindId DEPLOYMENTS = WatchedKindId.namespaced("apps", "v1", "deployments", "Deployment");

    /** Null outside CDI (a test of one reader): changes are then followed by nobody. */
    @Inject
    FollowedDeployments followers;

    public ManagedDeploymentFacet() {
        super(DEPLOYMENTS);
    }

    @Override
    public void changed(DeploymentView before, DeploymentView after) {
        if (followers != null) {
            followers.changed(before, after);
        }
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
