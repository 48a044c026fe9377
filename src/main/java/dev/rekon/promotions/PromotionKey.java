package dev.rekon.promotions;

import java.util.Set;

import dev.rekon.promotions.plan.Approval;
import dev.rekon.promotions.view.ImagePromotionView;

/**
 * Names one ImagePromotion for the loop, with the approval the event carries (null: none) and, for a trigger that
 * found it in the watch of ImagePromotions (a rollout's event, a stage's CDEvent), the promotion as found there,
 * which the plan takes instead of reading it (null: read it), and the stages whose change the trigger announces (a
 * rollout of an ImageDeploy they list; none for a source's build). A lost race reads it again.
 */
public record PromotionKey(String namespace, String name, Approval approval, ImagePromotionView seen,
        Set<String> changedStages) {

    public PromotionKey {
        changedStages = changedStages == null ? Set.of() : Set.copyOf(changedStages);
    }

    public PromotionKey(String namespace, String name, Approval approval) {
        this(namespace, name, approval, null, Set.of());
    }

    public static PromotionKey of(String namespace, String name) {
        return new PromotionKey(namespace, name, null, null, Set.of());
    }

    /**
     * A trigger's key for a promotion as its watch (with this process's own status writes) shows it, announcing a
     * change of the named stages.
     */
    public static PromotionKey seen(ImagePromotionView promotion, Set<String> changedStages) {
        return new PromotionKey(promotion.namespace(), promotion.name(), null, promotion, changedStages);
    }
}
