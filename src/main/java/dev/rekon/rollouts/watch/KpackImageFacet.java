package dev.rekon.rollouts.watch;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.rollouts.RolloutConfig;
import dev.rekon.rollouts.view.KpackImage;

/** kpack Images (of the configured Image CRD) as the resync, the status page and ImageDeploy events read them. */
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

    /** Found by its name, for an ImageDeploy's event planned from the watches. */
    @Override
    public java.util.Collection<String> indexKeys(KpackImage view) {
        return java.util.List.of(view.name());
    }
}
