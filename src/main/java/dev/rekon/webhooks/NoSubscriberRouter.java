package dev.rekon.webhooks;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.core.Reply;
import io.quarkus.arc.DefaultBean;

/** Stands in while no real {@link PushRouter} is deployed: the push is understood and nothing subscribes to it. */
@DefaultBean
@ApplicationScoped
public class NoSubscriberRouter implements PushRouter {

    public static final String REASON = "NoSubscriber";

    @Override
    public Reply route(ImagePushed push) {
        return Reply.unchanged(REASON, "nothing in Rekon subscribes to pushes of " + push.repositoryReference(), null);
    }
}
