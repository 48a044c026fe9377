package dev.rekon.webhooks;

import dev.rekon.core.Reply;

/**
 * Turns one image push into the change it implies for one kind of subscriber (image rollouts, Buildpack
 * refreshes, module releases). Implementations are CDI beans. Routing is in two steps: every router is first
 * asked who subscribes to the pushed repository ({@link #subscription}, from an index: no registry request, no
 * write); only the routers with a subscriber are then asked to {@link #route} the push, after its digest was
 * read once when one of them needs it. {@link #route} answers with its own {@link Reply} and throws
 * {@link dev.rekon.core.TransientFailureException} when the sender should retry.
 */
public interface PushRouter {

    /** The subscribers of {@code push.repositoryReference()}; {@link Subscription#NONE} when there are none. */
    Subscription subscription(ImagePushed push);

    Reply route(ImagePushed push);
}
