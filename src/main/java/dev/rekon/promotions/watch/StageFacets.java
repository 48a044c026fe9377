package dev.rekon.promotions.watch;

import java.util.Collection;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionNames;
import dev.rekon.promotions.view.StageImageDeploy;

/**
 * What a promotion reads of a remote stage's cluster, found by name: its PromotedImages and ImageDeploys. These are
 * facets of a stage cluster's own watches ({@link StageWatches}), never beans: Rekon's own cluster keeps its
 * watches of these kinds for rollouts.
 */
final class StageFacets {

    private StageFacets() {
    }

    static final class PromotedImages extends KindFacet<PromotedImageView> {

        PromotedImages() {
            super(WatchedKindId.namespaced(PromotionNames.GROUP, PromotionNames.VERSION,
                    PromotionNames.PROMOTED_PLURAL, PromotionNames.PROMOTED_KIND));
        }

        @Override
        public PromotedImageView view(JsonNode object) {
            return PromotedImageView.fromJson(object);
        }

        @Override
        public Collection<String> indexKeys(PromotedImageView view) {
            return List.of(view.name());
        }
    }

    static final class ImageDeploys extends KindFacet<StageImageDeploy> {

        ImageDeploys() {
            super(WatchedKindId.namespaced(PromotionNames.GROUP, PromotionNames.VERSION, "imagedeploys",
                    "ImageDeploy"));
        }

        @Override
        public StageImageDeploy view(JsonNode object) {
            return StageImageDeploy.fromJson(object);
        }

        @Override
        public Collection<String> indexKeys(StageImageDeploy view) {
            return List.of(view.name());
        }
    }
}
