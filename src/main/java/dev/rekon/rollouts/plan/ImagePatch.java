package dev.rekon.rollouts.plan;

import java.util.List;

/**
 * The write a rollout plans to a Deployment: only the containers whose image changes, in the order planned,
 * guarded by the resourceVersion the plan was made from, and the applied builds to record beside them. The
 * gateway turns it into the strategic-merge patch it sends.
 *
 * @param resourceVersion the Deployment's resourceVersion the plan was made from
 * @param images the containers whose image the patch sets, in order
 * @param appliedBuilds the {@code rekon.dev/applied-builds} annotation to record, or null to leave it as it is
 */
public record ImagePatch(String resourceVersion, List<Image> images, String appliedBuilds) {

    /** One container (an init container when {@code init}) and the image it is set to. */
    public record Image(boolean init, String container, String image) {
    }

    public ImagePatch {
        images = List.copyOf(images);
    }
}
