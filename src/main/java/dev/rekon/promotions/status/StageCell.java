package dev.rekon.promotions.status;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One stage of an ImagePromotion on the page, as the promotion's plan decided it: where the stage is, the build
 * there (full reference, short digest and the source Image's build number), its phase and since when, when its soak
 * ends and how long that is from the page's now, what it waits for (an approval, a verify Job) and why.
 *
 * @param problem the build failed there, or the stage went back to its last proven build
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StageCell(String name, String where, String image, String digest, Long buildCounter, String phase,
        Instant since, Instant soakEnd, String soakLeft, String waitingFor, boolean manual, String message,
        String lastFailed, boolean problem) {

    /** The same stage with the time left in its soak counted from {@code now}. */
    StageCell at(Instant now) {
        return new StageCell(name, where, image, digest, buildCounter, phase, since, soakEnd,
                soakEnd == null ? null : PromotionRows.left(now, soakEnd), waitingFor, manual, message, lastFailed,
                problem);
    }
}
