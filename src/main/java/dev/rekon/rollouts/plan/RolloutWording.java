package dev.rekon.rollouts.plan;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * The parts every rollout decision shares: how it says an ImageDeploy is ready or held, why an Image cannot roll
 * out, and the status it composes ({@link RolloutStatus}). It decides nothing itself.
 */
final class RolloutWording {

    private RolloutWording() {
    }

    static Condition ready(ImageDeployView idp) {
        return Condition.isTrue(RolloutPlanner.READY, "ImagesApplied",
                "Deployment " + idp.deploymentName() + " runs the latest ready build of every referenced kpack Image");
    }

    /** The status of a plan that leaves the Deployment as it is: {@code RolledOut} as its status says. */
    static ImageDeployStatus status(RolloutPlanner.Request r, Map<String, KpackImage> rolled, Condition ready,
            Condition progressing, Condition inSync) {
        return RolloutStatus.compose(r, rolled, List.of(), ready, progressing, inSync,
                RolledOut.of(r.deployment().orElse(null)));
    }

    /** The status of a plan that writes the Deployment: its rollout starts, {@code RolledOut} is False. */
    static ImageDeployStatus writing(RolloutPlanner.Request r, Map<String, KpackImage> rolled, Condition ready,
            Condition progressing, Condition inSync) {
        return RolloutStatus.compose(r, rolled, List.of(), ready, progressing, inSync,
                RolledOut.starting(r.imageDeploy().deploymentName()));
    }

    /** A plan that rejects the ImageDeploy as written: Ready False saying what to fix. */
    static RolloutPlan.Rejected rejected(RolloutPlanner.Request r, String reason, String message) {
        // RolledOut stays as it was: the Deployment read may not be Rekon's, and nothing was written to it.
        return new RolloutPlan.Rejected(reason, message, RolloutStatus.compose(r, Map.of(), List.of(),
                Condition.isFalse(RolloutPlanner.READY, reason, message)));
    }

    static String notReadyDetail(RolloutPlanner.Request r, Set<String> names, Set<String> notReady, Set<String> older) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            KpackImage img = r.images().get(n);
            if (notReady.contains(n) && img != null && img.notReadyMessage() != null) {
                sb.append("; ").append(n).append(": ").append(img.notReadyMessage());
            } else if (older.contains(n)) {
                sb.append("; ").append(n).append(": only an older build than the one applied was seen");
            }
        }
        return sb.toString();
    }

    /**
     * Holds a rollout of a suspended ImageDeploy: the Deployment stays, and the status names the builds that
     * wait, so that lifting {@code spec.suspend} shows what it will apply.
     */
    static RolloutPlan hold(RolloutPlanner.Request r, Collection<KpackImage> waiting, Condition inSync) {
        List<String> parts = waiting.stream().map(i -> AppliedImage.describe(i.buildCounter(), i.buildTime())
                + " of kpack Image " + i.name() + " (" + i.latestImage() + ")").toList();
        String message = suspendedPrefix(r.imageDeploy()) + String.join(", ", parts) + " waits for Deployment "
                + r.imageDeploy().deploymentName() + "; set spec.suspend to false to roll it out";
        return new RolloutPlan.NoChange(RolloutPlanner.SUSPENDED, message, RolloutStatus.compose(r, Map.of(),
                RolloutStatus.waiting(waiting), Condition.isFalse(RolloutPlanner.PROGRESSING, RolloutPlanner.SUSPENDED,
                        message), inSync, RolledOut.of(r.deployment().orElse(null))));
    }

    static String suspendedPrefix(ImageDeployView idp) {
        return "ImageDeploy " + idp.name() + " is suspended (spec.suspend: true): ";
    }

    static String names(Set<String> names) {
        return String.join(", ", names);
    }
}
