package dev.rekon.rollouts.plan;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.RolloutProgress;

/**
 * Decides an ImageDeploy's {@code RolledOut} condition: True once its Deployment has rolled out what Rekon wrote
 * (the controller observed the Deployment's generation, every wanted replica is updated and available, no old
 * one is left, and the rollout did not give up), False with reason {@value #PROGRESSING} while it rolls out, or
 * {@value #DEADLINE} once its {@code Progressing} condition says it gave up. A plan that writes the Deployment
 * starts a new rollout, so it says {@value #PROGRESSING} whatever the Deployment read before that write shows.
 * Pure.
 */
public final class RolledOut {

    public static final String TYPE = "RolledOut";
    public static final String COMPLETE = "RolloutComplete";
    public static final String PROGRESSING = "Progressing";
    public static final String DEADLINE = "ProgressDeadlineExceeded";

    private RolledOut() {
    }

    /** The condition the Deployment's status decides; null when there is no Deployment or it carries no progress. */
    public static Condition of(DeploymentView d) {
        RolloutProgress p = d == null ? null : d.progress();
        if (p == null) {
            return null;
        }
        String name = d.name();
        if ("False".equals(p.progressingStatus()) && DEADLINE.equals(p.progressingReason())) {
            return Condition.isFalse(TYPE, DEADLINE, "Deployment " + name + " gave up rolling out"
                    + (p.progressingMessage() == null ? "" : ": " + p.progressingMessage()));
        }
        if (p.observedGeneration() == null || p.observedGeneration() < p.generation()) {
            return Condition.isFalse(TYPE, PROGRESSING, "Deployment " + name + " has not observed generation "
                    + p.generation() + " yet");
        }
        int wanted = p.replicas();
        if (p.updatedReplicas() < wanted || p.availableReplicas() < wanted || p.statusReplicas() > wanted) {
            // No replica counts in the message: the status is written when the verdict changes, not per Pod.
            return Condition.isFalse(TYPE, PROGRESSING, "Deployment " + name + " is rolling out: not every one of its "
                    + wanted + " replicas is updated and available yet");
        }
        return Condition.isTrue(TYPE, COMPLETE, "Deployment " + name + " has rolled out: all " + wanted
                + " replicas updated and available");
    }

    /** The condition of a plan that writes the Deployment {@code name}: its rollout starts now. */
    public static Condition starting(String name) {
        return Condition.isFalse(TYPE, PROGRESSING, "Deployment " + name + " starts rolling out what Rekon wrote");
    }
}
