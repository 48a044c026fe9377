package dev.rekon.promotions.apply;

import dev.rekon.promotions.view.PromotionNames;
import dev.rekon.rollouts.view.RolloutNames;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** The API resources promotions read and write through fabric8's generic client. */
final class PromotionResources {

    static final ResourceDefinitionContext PROMOTIONS = context(PromotionNames.PROMOTION_PLURAL,
            PromotionNames.PROMOTION_KIND);
    static final ResourceDefinitionContext PROMOTED = context(PromotionNames.PROMOTED_PLURAL,
            PromotionNames.PROMOTED_KIND);
    static final ResourceDefinitionContext IMAGE_DEPLOYS = context("imagedeploys", "ImageDeploy");

    private PromotionResources() {
    }

    private static ResourceDefinitionContext context(String plural, String kind) {
        return new ResourceDefinitionContext.Builder().withGroup(RolloutNames.GROUP).withVersion(PromotionNames.VERSION)
                .withPlural(plural).withKind(kind).withNamespaced(true).build();
    }
}
