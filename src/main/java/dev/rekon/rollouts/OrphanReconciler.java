package dev.rekon.rollouts;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.plan.OrphanPlanner;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;

/**
 * The deletion of an ImageDeploy as the one reconcile loop runs it: reads whether the ImageDeploy exists again
 * and the Deployment it left behind (named by the deleted object, or, for a Reference-mode delete that carries
 * no spec, by the label Rekon put on it), plans with the pure {@link OrphanPlanner}, and deletes the Deployment
 * guarded by the uid and resourceVersion it was planned from. All reads go to the apiserver: a delete must not follow a
 * watch that is behind.
 */
@ApplicationScoped
public class OrphanReconciler implements Reconciler<ImageDeployDeleted, OrphanPlanner.Views, OrphanPlanner.Plan> {

    @Inject
    RolloutGateway gateway;

    @Override
    public ObjectRef subject(ImageDeployDeleted key) {
        return new ObjectRef(key.group() + "/v1alpha1", "ImageDeploy", key.namespace(), key.name());
    }

    @Override
    public Optional<OrphanPlanner.Views> load(ImageDeployDeleted d, boolean fresh) {
        Optional<ImageDeployView> now = gateway.imageDeploy(d.group(), d.namespace(), d.name());
        if (now.isPresent()) {
            return Optional.of(new OrphanPlanner.Views(d, now, d.deploymentName(), Optional.empty()));
        }
        String target = d.deploymentName() != null ? d.deploymentName()
                : gateway.deploymentLabelledFor(d.namespace(), d.name()).orElse(d.name());
        return Optional.of(new OrphanPlanner.Views(d, now, target, gateway.deployment(d.namespace(), target)));
    }

    @Override
    public Reply gone(ImageDeployDeleted d) {
        return Reply.unchanged("NoDeployment", "nothing of ImageDeploy " + d.namespace() + "/" + d.name()
                + " is left", List.of());
    }

    @Override
    public OrphanPlanner.Plan plan(OrphanPlanner.Views views) {
        return OrphanPlanner.plan(views);
    }

    @Override
    public void apply(OrphanPlanner.Plan plan) {
        DeploymentView d = plan.delete();
        if (d != null) {
            gateway.deleteDeployment(d);
        }
    }
}
