package dev.rekon.rollouts.plan;

import java.util.List;

import dev.rekon.rollouts.view.ImageDeployView;

/**
 * The Deployment a rollout plans to create for an ImageDeploy: its {@code spec.deployment} as written, named and
 * placed as the ImageDeploy says, labelled as Rekon's and owned by the ImageDeploy, each {@code REF=} container set
 * to the image planned, and the applied builds recorded. The gateway turns it into the object it creates.
 *
 * @param imageDeploy the ImageDeploy whose template it is, and that owns it
 * @param images each {@code REF=} container and the image it runs
 * @param appliedBuilds the {@code rekon.dev/applied-builds} annotation it records
 */
public record NewDeployment(ImageDeployView imageDeploy, List<ImagePatch.Image> images, String appliedBuilds) {

    public NewDeployment {
        images = List.copyOf(images);
    }

    /** The image planned for a container, or null when it is not one of the {@code REF=} containers. */
    public String imageOf(boolean init, String container) {
        return images.stream().filter(i -> i.init() == init && i.container().equals(container)).map(ImagePatch.Image::image)
                .findFirst().orElse(null);
    }
}
