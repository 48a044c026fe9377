package dev.rekon.rollouts.watch;

import java.util.Collection;
import java.util.stream.Stream;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.watch.KindFacet;
import dev.rekon.cluster.watch.WatchedKindId;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * ImageDeploys as rollouts, the resync and the status page read them: one {@link ImageDeployView} per object,
 * found by the kpack Image names its containers reference, and by its own name. One bean per group Rekon handles.
 */
public abstract class ImageDeployFacet extends KindFacet<ImageDeployView> {

    ImageDeployFacet(String group) {
        super(WatchedKindId.namespaced(group, "v1alpha1", "imagedeploys", "ImageDeploy"));
    }

    @Override
    public ImageDeployView view(JsonNode object) {
        return ImageDeployView.fromJson(object);
    }

    @Override
    public Collection<String> indexKeys(ImageDeployView view) {
        return java.util.stream.Stream.concat(Stream.of(ImageDeployView.nameKey(view.name())),
                view.refs().stream().map(r -> ImageDeployView.indexKey(view.refKind(), r.imageName()))).distinct()
                .toList();
    }

    /** Rekon's own ImageDeploys ({@value RolloutNames#GROUP}). */
    @Singleton
    public static class Rekon extends ImageDeployFacet {
        public Rekon() {
            super(RolloutNames.GROUP);
        }
    }

    /** kpush's ImageDeploys ({@value RolloutNames#KPUSH_GROUP}), read when {@code kpush-image-deploys} is on. */
    @Singleton
    public static class Kpush extends ImageDeployFacet {
        public Kpush() {
            super(RolloutNames.KPUSH_GROUP);
        }
    }
}
