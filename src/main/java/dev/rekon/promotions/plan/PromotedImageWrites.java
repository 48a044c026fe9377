package dev.rekon.promotions.plan;

import dev.rekon.cluster.Conditions;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotedImageStatus;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionStage;

/**
 * Makes the write that puts a build into a stage's PromotedImage: its status says what a kpack Image's would
 * (the build, Ready) with the write counter one up, and where the build came from.
 */
final class PromotedImageWrites {

    private PromotedImageWrites() {
    }

    /** {@code fromStage}: the stage the build was proven in (null: the source Image, or a rollback). */
    static PromotedImageWrite of(PromotionRequest r, PromotionStage stage, String namespace, Build build,
            String fromStage) {
        ImagePromotionView p = r.promotion();
        PromotedImageView current = r.stages().get(stage.name()).promotedImage();
        Long written = current == null ? null : current.status().buildCounter();
        long generation = current == null ? 1 : Math.max(1, current.generation());
        String why = fromStage == null ? "build " + build.buildCounter() + " of kpack Image " + p.spec().sourceImage()
                : "proven in stage " + fromStage;
        PromotedImageStatus status = new PromotedImageStatus(generation, build.image(), written == null ? 1 : written + 1,
                new PromotedImageStatus.Source(p.namespace(), p.spec().sourceImage(), build.buildCounter(), fromStage,
                        build.digest()),
                Conditions.set(current == null ? null : current.status().conditions(),
                        Conditions.Condition.isTrue("Ready", "Promoted", why), generation, r.now()));
        return new PromotedImageWrite(stage.name(), stage.cluster(), namespace, stage.promotedImage(),
                current == null ? null : current.resourceVersion(), p.namespace() + "/" + p.name(), status);
    }
}
