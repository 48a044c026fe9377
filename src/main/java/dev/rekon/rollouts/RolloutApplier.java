package dev.rekon.rollouts;

import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.pipeline.ConflictRetry;

/**
 * Applies a {@link RolloutPlan}: the Deployment first, in the one write guarded by the resourceVersion the plan
 * was made from (the lock between racing events), then the ImageDeploy status as the report of what was applied,
 * after the reply, through {@link StatusReports}, and a Kubernetes Event on both objects for every rollout.
 */
@ApplicationScoped
public class RolloutApplier {

    @Inject
    RolloutGateway gateway;

    @Inject
    EventRecorder events;

    @Inject
    StatusReports statusReports;

    /**
     * Writes the Deployment now and queues the status report; {@code replan} plans the status again from a fresh
     * ImageDeploy read should the report lose a race.
     */
    public void writeDeploymentThenReport(ImageDeployView idp, RolloutPlan plan,
            Function<ImageDeployView, ObjectNode> replan) {
        writeDeployment(idp, plan);
        if (plan.status() != null) {
            statusReports.submit(idp, plan.outcome() == Outcome.APPLIED,
                    () -> writeStatus(idp, plan.status(), replan));
        }
        recordEvents(idp, plan);
    }

    /**
     * For push rollouts, whose record of the applied tag is the status alone: status first, guarded by the
     * ImageDeploy's resourceVersion, so it acts as the lock between racing pushes. Should the Deployment write
     * fail after it, the redelivered push finds the status already saying so and patches the Deployment alone.
     */
    public void writeStatusThenDeployment(ImageDeployView idp, RolloutPlan plan) {
        if (plan.status() != null) {
            gateway.writeStatus(idp, plan.status());
        }
        writeDeployment(idp, plan);
        recordEvents(idp, plan);
    }

    private void writeDeployment(ImageDeployView idp, RolloutPlan plan) {
        if (plan instanceof RolloutPlan.Create c) {
            gateway.createDeployment(c.deployment());
        } else if (plan instanceof RolloutPlan.PatchImages p) {
            gateway.patchDeployment(idp.namespace(), idp.deploymentName(), p.patch());
        }
    }

    /**
     * Writes the status guarded by the ImageDeploy version it was planned from. The Deployment write has already
     * happened, so after a conflict only the status is planned again, from a fresh read.
     */
    private void writeStatus(ImageDeployView idp, ObjectNode status, Function<ImageDeployView, ObjectNode> replan) {
        ConflictRetry.run(fresh -> {
            Optional<ImageDeployView> current = fresh ? gateway.imageDeploy(idp.group(), idp.namespace(), idp.name())
                    : Optional.of(idp);
            ObjectNode planned = current.map(c -> fresh ? replan.apply(c) : status).orElse(null);
            if (planned != null) {
                gateway.writeStatus(current.get(), planned);
            }
            return planned;
        });
    }

    private void recordEvents(ImageDeployView idp, RolloutPlan plan) {
        String manualChange = ManualChanges.newlyReported(idp.status(), plan.status());
        if (manualChange != null) {
            events.warning(idp.ref(), ManualChanges.REASON, manualChange);
        }
        if (plan.outcome() == Outcome.APPLIED) {
            events.normal(idp.ref(), plan.reason(), plan.message());
            events.normal(deploymentOf(idp), plan.reason(), plan.message());
        }
    }

    static ObjectRef deploymentOf(ImageDeployView idp) {
        return new ObjectRef("apps/v1", "Deployment", idp.namespace(), idp.deploymentName());
    }
}
