package dev.rekon.promotions.watch;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionNames;

/**
 * ImagePromotions as a rollout's event finds the promotions it concerns (the ones whose source is a kpack Image,
 * or that list an ImageDeploy): from the one watch of the kind, so that a burst of Image and ImageDeploy events
 * lists none of them. A promotion its watch has yet to show is planned by its own event, or the next resync.
 */
@Singleton
public class ImagePromotionFacet extends KindFacet<ImagePromotionView> {

    public ImagePromotionFacet() {
        super(WatchedKindId.namespaced(PromotionNames.GROUP, PromotionNames.VERSION, PromotionNames.PROMOTION_PLURAL,
                PromotionNames.PROMOTION_KIND));
    }

    @Override
    public ImagePromotionView view(JsonNode object) {
        return ImagePromotionView.fromJson(object);
    }
}
