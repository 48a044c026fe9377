package dev.rekon.promotions;

import dev.rekon.promotions.plan.Approval;
import dev.rekon.promotions.view.ImagePromotionView;

/**
 * Names one ImagePromotion for the loop, with the approval the event carries (null: none) and, for a trigger that
 * found it in the watch of ImagePromotions (a rollout's event, a stage's CDEvent), the promotion as found there,
 * which the plan takes instead of reading it (null: read it). A lost race reads it again.
 */
public record PromotionKey(String namespace, String name, Approval approval, ImagePromotionView seen) {

    public PromotionKey(String namespace, String name, Approval approval) {
        this(namespace, name, approval, null);
    }

    public static PromotionKey of(String namespace, String name) {
        return new PromotionKey(namespace, name, null, null);
    }

    /** A trigger's key for a promotion as its watch (with this process's own status writes) shows it. */
    public static PromotionKey seen(ImagePromotionView promotion) {
        return new PromotionKey(promotion.namespace(), promotion.name(), null, promotion);
    }
}
