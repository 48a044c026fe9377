package dev.rekon.buildpacks;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.Reply;
import dev.rekon.registry.ImageReference;
import dev.rekon.webhooks.ImagePushed;
import dev.rekon.webhooks.PushRouter;
import dev.rekon.webhooks.Subscription;

/**
 * A registry push of a buildpackage repository is a publication: the Buildpacks and ClusterBuildpacks naming
 * that repository are re-read and the Builders depending on them re-resolved, exactly as the manual
 * {@value BuildpackFunctions#PUBLISHED_TYPE} event does. Subscribers are found in {@link BuildpackCatalog} and
 * {@link BuilderIndex}; they read the image themselves with their own ServiceAccount, so they need no digest.
 */
@ApplicationScoped
public class BuildpackPushRouter implements PushRouter {

    @Inject
    BuildpackService service;

    @Inject
    InstalledKinds kinds;

    @Override
    public Subscription subscription(ImagePushed push) {
        if (!kinds.allInstalled(InstalledKinds.BUILDPACK_KINDS)) {
            return Subscription.NONE;
        }
        String repository = push.repositoryReference();
        List<String> subscribers = new ArrayList<>();
        service.buildpacksNaming(repository).forEach(s -> subscribers.add(describe(s.kind(), s.namespace(), s.name())));
        service.buildersNaming(repository).forEach(b -> subscribers.add(describe(b.kind(), b.namespace(), b.name())));
        return new Subscription(subscribers, false, List.of());
    }

    private static String describe(String kind, String namespace, String name) {
        return kind + " " + (namespace == null ? "" : namespace + "/") + name;
    }

    @Override
    public Reply route(ImagePushed push) {
        return service.handle(new BuildpackInput.Published(
                new ImageReference(push.registry(), push.repository(), push.tag(), push.digest())));
    }
}
