package dev.rekon.rollouts;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;


import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.rollouts.plan.RolledOut;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.ImageDeployIndex;

/**
 * Decides when a managed Deployment's change, as its watch delivers it, calls for its ImageDeploy's status to be
 * planned again: when the {@code RolledOut} its status decides changed (for a Deployment the watch lists anew, only
 * when the ImageDeploy does not say so already). The status pass then runs through the one loop
 * ({@link StatusPasses#follow}), so a rollout that completes, or gives up, is reported without waiting for an
 * event about the ImageDeploy or a resync. Called on the watch's thread: it only queues.
 */
@ApplicationScoped
public class FollowedDeployments {

    @Inject
    ImageDeployIndex index;

    @Inject
    StatusPasses passes;

    public void changed(DeploymentView before, DeploymentView after) {
        Condition now = RolledOut.of(after);
        DeploymentView.Owner owner = after == null ? null : after.imageDeployOwner();
        if (now == null || owner == null || before != null && same(now, RolledOut.of(before))) {
            return;
        }
        String group = owner.group();
        String name = owner.name();
        if (name == null || group.isEmpty() || before == null && reported(group, after.namespace(), name, now)) {
            return;
        }
        passes.follow(RolloutKey.deploymentChanged(group, after.namespace(), name));
    }

    /**
     * Whether the ImageDeploy (as its watch shows it, with this process's own status writes) says {@code now} already
     * (only Rekon's group is looked at). Asked only of a Deployment the watch lists anew (started, relisted): a
     * change of a Deployment it knew always asks for a pass, since a status pass that has planned but not yet written
     * (or whose write the watch has yet to show) may be about to say the state before the change.
     */
    private boolean reported(String group, String namespace, String name, Condition now) {
        if (!RolloutNames.GROUP.equals(group)) {
            return false;
        }
        return index.seen(group, namespace, name).map(ImageDeployView::currentStatus)
                .map(s -> s.condition(RolledOut.TYPE)).filter(c -> same(now, c)).isPresent();
    }

    private static boolean same(Condition a, Condition b) {
        return b != null && a.status().equals(b.status()) && a.reason().equals(b.reason());
    }

    private static boolean same(Condition a, Conditions.Written b) {
        return a.status().equals(b.status()) && a.reason().equals(b.reason());
    }
}
