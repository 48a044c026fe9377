package dev.rekon.rollouts;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.rollouts.apply.CdEventGateway;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.plan.ManualChanges;
import dev.rekon.rollouts.plan.RolloutHistory;
import dev.rekon.rollouts.plan.RolloutPlan;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * Writes one {@link RolloutStep}, whatever planned it (a build, a push, a resync). A step that writes the
 * Deployment writes it in the one write guarded by the resourceVersion the plan was made from (the lock between
 * racing inputs), records a Kubernetes Event on both objects, and queues the key for its status pass
 * ({@link StatusPasses}), which plans the status again from the views and writes it after the reply. Any other
 * step writes the status it planned when it differs, guarded by the ImageDeploy's resourceVersion, in the same
 * attempt, with a Warning Event for a newly reported manual change, and, once that write stood, the CDEvents of
 * the rollouts it records for the first time ({@code status.history}); then a status it wrote is told to the other
 * areas of this process ({@link RolloutNotices}). A lost race goes up to the loop, which
 * plans again from fresh reads.
 */
@ApplicationScoped
public class RolloutApplier {

    @Inject
    RolloutGateway gateway;

    @Inject
    EventRecorder events;

    @Inject
    StatusPasses statusPasses;

    @Inject
    CdEventGateway cdEvents;

    @Inject
    RolloutNotices notices;

    public void apply(RolloutStep step) {
        ImageDeployView idp = step.imageDeploy();
        RolloutPlan plan = step.plan();
        if (writeDeployment(idp, plan)) {
            step.key().earlier().record(plan);
            events.normal(idp.ref(), plan.reason(), plan.message());
            events.normal(RolloutStep.deploymentOf(idp), plan.reason(), plan.message());
            if (plan.status() != null) {
                statusPasses.submit(step.key());
            }
        } else if (plan.status() != null) {
            Optional<String> written = gateway.writeStatus(idp, plan.status());
            cdEvents.rolledOut(idp, RolloutHistory.added(idp.currentStatus().history(), plan.status().history()));
            String manualChange = ManualChanges.newlyReported(idp.currentStatus(), plan.status());
            if (manualChange != null) {
                events.warning(idp.ref(), ManualChanges.REASON, manualChange);
            }
            if (written.isPresent() && RolloutNames.GROUP.equals(idp.group())) {
                notices.tell(RolloutObserved.statusWritten(idp.namespace(), idp.name(), written.get()));
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
