package dev.rekon.promotions.watch;

import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

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

    /**
     * A stage cluster's ImageDeploys; each change that newly settles a build ({@link
     * StageImageDeploy#newlySettledSince}) is handed to {@code settled}, on the watch's thread. One the watch lists
     * anew (its start, a relist) is not: the plan that started the watch read it.
     */
    static final class ImageDeploys extends KindFacet<StageImageDeploy> {

        private final Consumer<StageImageDeploy> settled;

        ImageDeploys(Consumer<StageImageDeploy> settled) {
            super(WatchedKindId.namespaced(PromotionNames.GROUP, PromotionNames.VERSION, "imagedeploys",
                    "ImageDeploy"));
            this.settled = settled;
        }

        @Override
        public void changed(StageImageDeploy before, StageImageDeploy after) {
            if (before != null && after != null && after.newlySettledSince(before)) {
                settled.accept(after);
            }
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
