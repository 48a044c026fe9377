package dev.rekon.promotions;

import dev.rekon.promotions.plan.Approval;

/** Names one ImagePromotion for the loop, with the approval the event carries (null: none). */
public record PromotionKey(String namespace, String name, Approval approval) {

    public static PromotionKey of(String namespace, String name) {
        return new PromotionKey(namespace, name, null);
    }
}
