package dev.rekon.rollouts.status;

import java.util.List;

import dev.rekon.rollouts.plan.ManualChanges;
import dev.rekon.rollouts.plan.RolloutPlan;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.status.RolloutSection.Progress;

/**
 * Names the state of a rollout row from what {@link RolloutPlanner} plans for its ImageDeploy now, in report mode
 * (the decision is the planner's, made from the same views as an event's): a rejected plan is {@code Failing}; a
 * plan that would create or patch the Deployment is {@code Lagging}; a Deployment left as it is because of
 * {@code spec.suspend} or a manual change is {@code Suspended} or {@code Drifted}; otherwise the Deployment's own
 * rollout progress says {@code RollingOut}, {@code Failing} or {@code Healthy}, and without a Deployment the row
 * is {@code Waiting} for a Ready build.
 */
public final class RolloutStates {

    static final List<String> ORDER = List.of("Failing", "Drifted", "Lagging", "Suspended", "RollingOut", "Waiting",
            "Healthy");

    /** A row's state, with the reason and message it shows. */
    public record State(String state, String reason, String message) {

        public boolean problem() {
            return ORDER.indexOf(state) < ORDER.indexOf("Suspended");
        }
    }

    private RolloutStates() {
    }

    /** {@code progress}: the managed Deployment's, or null when there is none. */
    public static State of(RolloutPlan plan, String deploymentName, Progress progress) {
        if (plan instanceof RolloutPlan.Rejected r) {
            return new State("Failing", r.reason(), r.message());
        }
        if (plan instanceof RolloutPlan.Create) {
            return new State("Lagging", "DeploymentMissing", "Deployment " + deploymentName
                    + " does not exist yet; the next event of its Image creates it");
        }
        if (plan instanceof RolloutPlan.PatchImages p) {
            return new State("Lagging", "NewerBuild", "a newer Ready build is not applied yet: " + p.message());
        }
        if (RolloutPlanner.SUSPENDED.equals(plan.reason())) {
            return new State("Suspended", "Suspended", plan.message());
        }
        if (ManualChanges.REASON.equals(plan.reason())) {
            return new State("Drifted", ManualChanges.REASON, plan.message());
        }
        if ("ContainerNotFound".equals(plan.reason())) {
            return new State("Failing", plan.reason(), plan.message());
        }
        if (progress == null) {
            return new State("Waiting", "ImageNotReady", plan.message());
        }
        return progress(progress);
    }

    private static State progress(Progress p) {
        if ("False".equals(p.progressing())) {
            return new State("Failing", p.progressingReason() == null ? "NotProgressing" : p.progressingReason(),
                    "the Deployment reports Progressing False");
        }
        if (!p.observed()) {
            return new State("RollingOut", "NotObservedYet", "no Deployment controller has reported on it yet");
        }
        if (p.updated() < p.desired() || p.ready() < p.desired()) {
            return new State("RollingOut", "RollingOut", p.updated() + " of " + p.desired() + " replicas updated, "
                    + p.ready() + " ready");
        }
        return new State("Healthy", "InSync", "runs the newest Ready build of every Image it names");
    }
}
