package dev.rekon.rollouts.watch;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * PromotedImages as the status page reads them for the ImageDeploys that follow one ({@code spec.refKind:
 * PromotedImage}): their status has a kpack Image's shape, so they are viewed as one.
 */
@Singleton
public class PromotedImageFacet extends KindFacet<KpackImage> {

    public PromotedImageFacet() {
        super(WatchedKindId.namespaced(RolloutNames.GROUP, "v1alpha1", RolloutNames.PROMOTED_IMAGE_PLURAL,
                RolloutNames.PROMOTED_IMAGE_KIND));
    }

    @Override
    public KpackImage view(JsonNode object) {
        return KpackImage.fromJson(object);
    }
}
