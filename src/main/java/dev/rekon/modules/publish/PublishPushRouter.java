package dev.rekon.modules.publish;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.webhooks.ImagePushed;
import dev.rekon.webhooks.PushRouter;
import dev.rekon.webhooks.Subscription;

/**
 * A push of a tag to {@code <prefix>/.../component-descriptors/<component>}, under one of
 * {@code rekon.modules.publish.repositories}, is a component version to publish ({@link PublishService}). The
 * component version is read with publication's own credentials, by the digest the push names (a registry may
 * notify before the tag resolves), or by tag when it names none, so no digest is needed up front.
 */
@ApplicationScoped
public class PublishPushRouter implements PushRouter {

    @Inject
    PublishService service;

    @Override
    public Subscription subscription(ImagePushed push) {
        String repository = push.repositoryReference();
        if (!repository.contains(PublishKey.COMPONENT_DESCRIPTORS) || !service.publishes(repository)) {
            return Subscription.NONE;
        }
        return new Subscription(List.of("module publication of " + repository), false, List.of());
    }

    @Override
    public Reply route(ImagePushed push) {
        if (push.tag() == null || push.tag().isBlank()) {
            return Reply.unchanged("NoTag", "push of " + push.reference() + " names no tag; a component version is"
                    + " published by its version tag", List.of());
        }
        return service.publish(push.repositoryReference(), push.tag(), push.digest());
    }
}
