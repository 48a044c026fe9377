package dev.rekon.promotions.watch;

import java.util.Collection;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.rollouts.RolloutConfig;
import dev.rekon.rollouts.view.KpackImage;

/**
 * kpack Images as a promotion's trigger takes its source, from the one watch of the kind rollouts keep: a facet of
 * its own, so that the versions an Image event announced ({@code seen}) hold back only promotions' views of it.
 */
@Singleton
public class SourceImageFacet extends KindFacet<KpackImage> {

    @Inject
    public SourceImageFacet(RolloutConfig config) {
        super(WatchedKindId.namespaced(config.imageCrd().group(), config.imageCrd().version(),
                config.imageCrd().plural(), "Image"));
    }

    @Override
    public KpackImage view(JsonNode object) {
        return KpackImage.fromJson(object);
    }

    @Override
    public Collection<String> indexKeys(KpackImage view) {
        return List.of(view.name());
    }
}
