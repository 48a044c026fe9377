package dev.rekon.rollouts;

import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/** What a rollout event asks {@link RolloutService} to bring in line, parsed and guarded by {@link RolloutFunctions}. */
public sealed interface RolloutInput {

    /** A kpack Image reported its status; {@code image} is null when the event only named it (Reference mode). */
    record ImageReported(String namespace, String name, KpackImage image) implements RolloutInput {

        public static ImageReported of(KpackImage image) {
            return new ImageReported(image.namespace(), image.name(), image);
        }
    }

    /**
     * A PromotedImage (a build a promotion wrote into this stage) reported its status; {@code image} is null when the
     * event only named it. It reaches the ImageDeploys whose {@code spec.refKind} is PromotedImage, as a kpack Image's
     * build reaches the others.
     */
    record PromotedImageReported(String namespace, String name, KpackImage image) implements RolloutInput {
    }

    /** A kpack Image was deleted: its Deployments keep the image they run. */
    record ImageDeleted(String namespace, String name) implements RolloutInput {
    }

    /**
     * An ImageDeploy was added or changed: its Deployment follows the current Images. {@code object} is the
     * ImageDeploy the event carried, null when it carried none (Reference mode).
     */
    record ImageDeployChanged(String group, String namespace, String name, ImageDeployView object)
            implements RolloutInput {
    }

    /**
     * An ImageDeploy was deleted: the Deployment it owns goes too. {@code uid} and {@code deploymentName} are
     * null when the event carried no object (Reference mode).
     */
    record ImageDeployDeleted(String group, String namespace, String name, String uid, String deploymentName)
            implements RolloutInput {
    }
}
