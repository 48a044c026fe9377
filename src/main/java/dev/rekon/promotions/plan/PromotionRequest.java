package dev.rekon.promotions.plan;

import java.time.Instant;
import java.util.Map;
import java.util.function.Predicate;

import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.StageView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Everything one promotion plan is made from: the ImagePromotion, its source kpack Image (null when it does not
 * exist), each stage as read (by stage name; a stage not read is absent), the approval the event carries (null:
 * none), which namespaces Rekon may act in, and now.
 */
public record PromotionRequest(ImagePromotionView promotion, KpackImage source, Map<String, StageView> stages,
        Approval approval, Predicate<String> namespaceAllowed, Instant now) {

    public PromotionRequest {
        stages = stages == null ? Map.of() : Map.copyOf(stages);
    }
}
