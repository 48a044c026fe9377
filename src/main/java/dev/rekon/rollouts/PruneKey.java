package dev.rekon.rollouts;

import java.util.Optional;
import java.util.Set;

import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * Names one managed Deployment for the prune planner on the one loop ({@link PruneReconciler}), with what a pass
 * knows of it from its watches: the Deployment as seen (what a delete is guarded by) and its owning ImageDeploy.
 *
 * @param seen   the Deployment as the pass's watch showed it
 * @param owner  the owning ImageDeploy as the watch showed it (empty: none there), or null: read it
 * @param groups the ImageDeploy groups whose watch answered
 */
public record PruneKey(DeploymentView seen, Optional<ImageDeployView> owner, Set<String> groups) {

    /** The same Deployment, its owner read from the apiserver: a delete must not follow a watch that is behind. */
    public PruneKey confirming() {
        return new PruneKey(seen, null, groups);
    }
}
