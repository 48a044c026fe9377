package dev.rekon.promotions.plan;

import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.PromotionHistory;

/**
 * A Kubernetes Event a plan tells on its ImagePromotion once the plan is written: a build entered a stage
 * ({@code Promoted}), was proven there, failed ({@code BuildFailed}), was rolled back from, or waits for an approval
 * to enter it. A plan lists one per transition it makes, and a plan that makes none (the same input again) lists
 * none.
 *
 * @param warning Warning rather than Normal: a person should look (a failure, a rollback)
 */
public record PromotionEvent(boolean warning, String reason, String message) {

    public static final String WAITING = "WaitingForApproval";

    /** The Event of a stage's phase change, as the history records it. */
    static PromotionEvent of(PromotionHistory h) {
        String build = "stage " + h.stage() + ": " + h.image() + " (build " + h.buildCounter() + ")";
        return switch (h.phase()) {
            case Failed -> new PromotionEvent(true, "BuildFailed", build + " failed; it goes no further");
            case RolledBack -> new PromotionEvent(true, "RolledBack", build + " is back, the last proven build");
            case Proven -> new PromotionEvent(false, "Proven", build + " is proven");
            default -> new PromotionEvent(false, "Promoted", build + " entered");
        };
    }

    /** A build, proven in the stage before, now waits for a person's approval to enter {@code stage}. */
    static PromotionEvent waiting(String stage, Build build) {
        return new PromotionEvent(false, WAITING, "stage " + stage + ": " + build.image() + " (build "
                + build.buildCounter() + ") waits for approval; send dev.rekon.promotion.approve");
    }
}
