package dev.rekon.rollouts.watch;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.rollouts.RolloutConfig;
import dev.rekon.rollouts.view.KpackImage;

/** kpack Images (of the configured Image CRD) as the resync and the status page read them. */
@Singleton
public class KpackImageFacet extends KindFacet<KpackImage> {

    @Inject
    public KpackImageFacet(RolloutConfig config) {
        super(WatchedKindId.namespaced(config.imageCrd().group(), config.imageCrd().version(), config.imageCrd().plural(),
                "Image"));
    }

    @Override
    public KpackImage view(JsonNode object) {
        return KpackImage.fromJson(object);
    }
}
