package dev.rekon.rollouts.plan;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.rollouts.view.ImageDeployView.ContainerRef;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Decides whether a missing Deployment is created: only when every referenced kpack Image has a usable build (a
 * Deployment is never created half-resolved), and not while the ImageDeploy is suspended. Pure.
 */
final class NewDeploymentPlanner {

    private NewDeploymentPlanner() {
    }

    static RolloutPlan plan(RolloutPlanner.Request r, Candidates c) {
        ImageDeployView idp = r.imageDeploy();
        List<ContainerRef> refs = idp.refs();
        Map<String, KpackImage> usable = c.usable();
        Set<String> unresolved = new LinkedHashSet<>();
        refs.stream().map(ContainerRef::imageName).filter(n -> !usable.containsKey(n)).forEach(unresolved::add);
        if (!unresolved.isEmpty()) {
            String message = "Deployment " + idp.deploymentName() + " is not created yet: kpack Image "
                    + RolloutWording.names(unresolved) + " has no ready image"
                    + RolloutWording.notReadyDetail(r, unresolved, c.notReady(), c.older());
            return new RolloutPlan.NoChange("ImageNotReady", message, RolloutWording.status(r, Map.of(),
                    Condition.isFalse(RolloutPlanner.READY, "ImageNotReady", message), null, null));
        }
        if (idp.suspend()) {
            return RolloutWording.hold(r, usable.values(), null);
        }
        NewDeployment deployment = DeploymentWrites.create(idp, usable, RolloutStatus.appliedBuilds(r, usable));
        String message = "created Deployment " + idp.deploymentName() + " with " + DeploymentWrites.describe(refs, usable);
        return new RolloutPlan.Create(deployment, "DeploymentCreated", message, RolloutWording.writing(r, usable,
                RolloutWording.ready(idp), Condition.isTrue(RolloutPlanner.PROGRESSING, "DeploymentCreated", message),
                ManualChanges.condition(List.of(), idp.deploymentName())));
    }
}
