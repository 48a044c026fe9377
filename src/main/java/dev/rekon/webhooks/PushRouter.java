package dev.rekon.webhooks;

import dev.rekon.core.Reply;

/**
 * Turns one image push into the change it implies for one kind of subscriber (image rollouts, Buildpack
 * refreshes, module releases). Implementations are CDI beans, all called for every push; each answers with its
 * own {@link Reply} ({@code unchanged} when nothing subscribes) and throws
 * {@link dev.rekon.core.TransientFailureException} when the sender should retry.
 */
public interface PushRouter {

    Reply route(ImagePushed push);
}
