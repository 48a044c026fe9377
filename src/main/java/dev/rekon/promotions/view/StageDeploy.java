package dev.rekon.promotions.view;

import java.time.Instant;

import dev.rekon.cluster.Conditions;

/**
 * What proof needs of one ImageDeploy in a stage: the build it runs for the promoted image (its
 * {@code status.images} entry), and its {@code Ready} and {@code RolledOut} conditions (null when absent).
 */
public record StageDeploy(String name, String runningImage, Conditions.Written ready, Conditions.Written rolledOut) {

    /** The reason a Deployment gives when its rollout made no progress within its deadline. */
    public static final String DEADLINE = "ProgressDeadlineExceeded";

    /** Whether it runs {@code build}, rolled out (observed, updated, available) and Ready. */
    public boolean provesRunning(Build build) {
        return build.namedBy(runningImage) && isTrue(ready) && isTrue(rolledOut);
    }

    /**
     * Whether it runs {@code build} and says Ready=False, or its rollout gave up ({@code RolledOut=False} with
     * reason {@value #DEADLINE}, as its Deployment's {@code Progressing} says it): the build fails the stage.
     */
    public boolean failsRunning(Build build) {
        return build.namedBy(runningImage) && (isFalse(ready)
                || isFalse(rolledOut) && DEADLINE.equals(rolledOut.reason()));
    }

    /**
     * Whether these conditions settle the build an ImageDeploy runs, whichever it is: they prove it (both True) or
     * fail it (as {@link #failsRunning}); a rollout under way settles nothing.
     */
    public static boolean settles(Conditions.Written ready, Conditions.Written rolledOut) {
        return isTrue(ready) && isTrue(rolledOut) || isFalse(ready)
                || isFalse(rolledOut) && DEADLINE.equals(rolledOut.reason());
    }

    /** Why failed, for the stage's message: the condition that failed it, with its reason and message. */
    public Conditions.Written failure() {
        return isFalse(ready) ? ready : rolledOut;
    }

    /** The later of its two conditions' last transitions: a proof's soak counts from there. */
    public Instant settledAt() {
        Instant a = at(ready);
        Instant b = at(rolledOut);
        return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
    }

    /** Why it does not prove the build yet, for the stage's message. */
    public String notYet(Build build) {
        if (!build.namedBy(runningImage)) {
            return "ImageDeploy " + name + " runs " + (runningImage == null ? "no build yet" : runningImage);
        }
        if (!isTrue(rolledOut)) {
            return "ImageDeploy " + name + " has not rolled out yet" + reason(rolledOut);
        }
        return "ImageDeploy " + name + " is not Ready" + reason(ready);
    }

    private static String reason(Conditions.Written c) {
        return c == null || c.reason() == null ? "" : " (" + c.reason() + ")";
    }

    private static boolean isFalse(Conditions.Written c) {
        return c != null && "False".equals(c.status());
    }

    private static boolean isTrue(Conditions.Written c) {
        return c != null && "True".equals(c.status());
    }

    private static Instant at(Conditions.Written c) {
        return c == null ? null : StageStatus.instant(c.lastTransitionTime());
    }
}
