package dev.rekon.promotions.plan;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionStatus;

/**
 * What to do for one ImagePromotion. Every plan carries its reply and the status to write (null when the status
 * already says the same).
 */
public sealed interface ImagePromotionPlan extends Reconciler.Plan {

    /** How long after a soak's end the promotion is planned again, so that the soak has surely ended by then. */
    Duration SOAK_MARGIN = Duration.ofSeconds(1);

    ImagePromotionView promotion();

    PromotionStatus status();

    /**
     * Moves builds on: the PromotedImages to write (in stage order), the verify Jobs to create, the status, how
     * long until a soak ends (null: nothing waits on the clock), when the promotion must be planned again, and the
     * Kubernetes Events on the ImagePromotion that tell this plan's transitions, written after the status that
     * records them (none when the status is already so: a transition is told once).
     */
    record Advance(ImagePromotionView promotion, List<PromotedImageWrite> promotedImages,
            List<VerifyJobWrite> verifyJobs, PromotionStatus status, Duration recheckAfter, Reply reply,
            List<PromotionEvent> events) implements ImagePromotionPlan {

        public Advance {
            promotedImages = List.copyOf(promotedImages);
            verifyJobs = List.copyOf(verifyJobs);
            events = List.copyOf(events);
        }

        @Override
        public boolean writes() {
            return !promotedImages.isEmpty() || !verifyJobs.isEmpty() || status != null;
        }

        /** Planned again once the soak has surely ended (a second after it), on the loop's work queue. */
        @Override
        public Optional<Duration> rescheduleAfter() {
            return Optional.ofNullable(recheckAfter).map(d -> d.plus(SOAK_MARGIN));
        }
    }

    /**
     * The spec or a stage cannot be used as it is (bad input): nothing is written to any stage; the status says
     * why (Ready False), and the reply is rejected with the same reason.
     */
    record Refused(ImagePromotionView promotion, PromotionStatus status, Reply reply) implements ImagePromotionPlan {
        @Override
        public boolean writes() {
            return status != null;
        }
    }

    /** An approval that lets nothing in (another digest waits, or none): rejected, nothing written at all. */
    record ApprovalRefused(ImagePromotionView promotion, Reply reply) implements ImagePromotionPlan {
        @Override
        public PromotionStatus status() {
            return null;
        }

        @Override
        public boolean writes() {
            return false;
        }
    }

    static Outcome outcome(boolean writes) {
        return writes ? Outcome.APPLIED : Outcome.UNCHANGED;
    }
}
