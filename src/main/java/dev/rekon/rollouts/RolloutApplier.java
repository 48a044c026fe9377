package dev.rekon.rollouts;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;

/**
 * Writes one {@link RolloutStep}, whatever planned it (a build, a push, a resync): the Deployment first, in the
 * one write guarded by the resourceVersion the plan was made from (the lock between racing inputs), then the
 * ImageDeploy status when the plan says it differs, guarded by the ImageDeploy's resourceVersion, in the same
 * attempt. A Kubernetes Event on both objects tells of every rollout, and a Warning of a newly reported manual
 * change. A lost race goes up to the loop, which plans again from fresh reads.
 */
@ApplicationScoped
public class RolloutApplier {

    @Inject
    RolloutGateway gateway;

    @Inject
    EventRecorder events;

    public void apply(RolloutStep step) {
        ImageDeployView idp = step.imageDeploy();
        RolloutPlan plan = step.plan();
        if (writeDeployment(idp, plan)) {
            step.earlier().record(plan);
            ObjectRef deployment = RolloutStep.deploymentOf(idp);
            events.normal(idp.ref(), plan.reason(), plan.message());
            events.normal(deployment, plan.reason(), plan.message());
        }
        if (plan.status() != null) {
            gateway.writeStatus(idp, plan.status());
            String manualChange = ManualChanges.newlyReported(idp.status(), plan.status());
            if (manualChange != null) {
                events.warning(idp.ref(), ManualChanges.REASON, manualChange);
            }
        }
    }

    /** Writes the Deployment the plan creates or patches; false when it writes none. */
    private boolean writeDeployment(ImageDeployView idp, RolloutPlan plan) {
        if (plan instanceof RolloutPlan.Create c) {
            gateway.createDeployment(c.deployment());
        } else if (plan instanceof RolloutPlan.PatchImages p) {
            gateway.patchDeployment(idp.namespace(), idp.deploymentName(), p.patch());
        } else {
            return false;
        }
        return true;
    }
}
