package dev.rekon.promotions.view;

/** Where the build in a stage stands, as {@code status.stages[].phase} says it (written by its name). */
@io.quarkus.runtime.annotations.RegisterForReflection
public enum StagePhase {
    /** No build has entered the stage yet. */
    Empty,
    /** Written to the stage; its ImageDeploys have not rolled it out yet. */
    Promoting,
    /** Rolled out and Ready; the soak has not ended. */
    Soaking,
    /** Soaked; the verify Job has not finished. */
    Verifying,
    /** Proven in the stage before; waits for an approval to enter this one. */
    WaitingForApproval,
    /** Rolled out, soaked and verified: it may move on. */
    Proven,
    /** Not Ready while soaking, or its verify Job failed: it goes no further. */
    Failed,
    /** Failed, and the stage went back to its last proven build. */
    RolledBack;

    public static StagePhase of(String text) {
        for (StagePhase p : values()) {
            if (p.name().equals(text)) {
                return p;
            }
        }
        return Empty;
    }
}
