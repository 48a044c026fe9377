package dev.rekon.promotions.view;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One entry of {@code ImagePromotion.status.stages}: the build in the stage now ({@code image}, with the source
 * Image's build number), its phase and since when, the last build proven there (what a rollback returns to), the
 * last build that failed there (never written there again), what the stage waits for, and a sentence for people.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StageStatus(String name, String image, Long buildCounter, StagePhase phase, Instant since,
        String lastProven, Long lastProvenBuildCounter, String lastFailed, String waitingFor, String message) {

    /** How {@code waitingFor} says when a soak ends: {@code soak until <instant>}. */
    public static final String SOAK_UNTIL = "soak until ";

    public static StageStatus empty(String name) {
        return new StageStatus(name, null, null, StagePhase.Empty, null, null, null, null, null, null);
    }

    /** The stage in phase {@code p}: since stays when the phase does. */
    public StageStatus with(StagePhase p, Instant at, String waiting, String why) {
        return new StageStatus(name, image, buildCounter, p, p == phase && since != null ? since : at, lastProven,
                lastProvenBuildCounter, lastFailed, waiting, why);
    }

    /** The stage with {@code build} in it from now, in phase {@code p}. */
    public StageStatus entering(Build build, StagePhase p, Instant at, String why) {
        return new StageStatus(name, build.image(), build.buildCounter(), p, at, lastProven, lastProvenBuildCounter,
                lastFailed, null, why);
    }

    /** The stage's build proven now: it becomes the last proven one. */
    public StageStatus provenNow(Instant at, String why) {
        return new StageStatus(name, image, buildCounter, StagePhase.Proven,
                phase == StagePhase.Proven && since != null ? since : at, image, buildCounter, lastFailed, null, why);
    }

    /** The stage's build failed now: remembered so that it never enters again. */
    public StageStatus failedNow(Instant at, String why) {
        return new StageStatus(name, image, buildCounter, StagePhase.Failed,
                phase == StagePhase.Failed && since != null ? since : at, lastProven, lastProvenBuildCounter, image,
                null, why);
    }

    /** The stage back on its last proven build after {@code lastFailed} failed. */
    public StageStatus rolledBack(Instant at, String why) {
        return new StageStatus(name, lastProven, lastProvenBuildCounter, StagePhase.RolledBack, at, lastProven,
                lastProvenBuildCounter, lastFailed, null, why);
    }

    /** The stage's build, or null when none entered. */
    public Build build() {
        return image == null ? null : new Build(image, buildCounter);
    }

    /** When the stage's soak ends, as {@code waitingFor} says it, or null when it does not soak. */
    public Instant soakEnd() {
        return phase == StagePhase.Soaking && waitingFor != null && waitingFor.startsWith(SOAK_UNTIL)
                ? instant(waitingFor.substring(SOAK_UNTIL.length())) : null;
    }

    /** The last build proven here, or null. */
    public Build proven() {
        return lastProven == null ? null : new Build(lastProven, lastProvenBuildCounter);
    }

    static StageStatus of(JsonNode n) {
        return new StageStatus(PromotionStage.text(n, "name"), PromotionStage.text(n, "image"), number(n, "buildCounter"),
                StagePhase.of(PromotionStage.text(n, "phase")), instant(PromotionStage.text(n, "since")),
                PromotionStage.text(n, "lastProven"), number(n, "lastProvenBuildCounter"),
                PromotionStage.text(n, "lastFailed"), PromotionStage.text(n, "waitingFor"),
                PromotionStage.text(n, "message"));
    }

    static Long number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.canConvertToLong() ? v.asLong() : null;
    }

    static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
