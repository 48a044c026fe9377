package dev.rekon.buildpacks;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.ImagePushed;
import dev.rekon.webhooks.PushRouter;

/**
 * A registry push of a buildpackage repository is a publication: the Buildpacks and ClusterBuildpacks naming
 * that repository are re-read and the Builders depending on them re-resolved, exactly as the manual
 * {@value BuildpackFunctions#PUBLISHED_TYPE} event does.
 */
@ApplicationScoped
public class BuildpackPushRouter implements PushRouter {

    @Inject
    BuildpackService service;

    @Override
    public Reply route(ImagePushed push) {
        return service.handle(new BuildpackInput.Published(
                new ImageReference(push.registry(), push.repository(), push.tag(), push.digest())));
    }
}
