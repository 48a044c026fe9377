package dev.rekon.rollouts;

import dev.rekon.registry.ImageReference;
import dev.rekon.rollouts.view.PushSubscriber;

/**
 * Names one ImageDeploy that follows a pushed repository, for the one loop ({@link PushReconciler}), with the push
 * it is to follow: the registry, repository, version tag and (when known) digest.
 */
public record PushKey(String group, String namespace, String name, ImageReference pushed, EarlierWrite earlier)
        implements ImageDeployKey {

    public static PushKey of(PushSubscriber s, ImageReference pushed) {
        return new PushKey(s.group(), s.namespace(), s.name(), pushed, new EarlierWrite());
    }

    /** As it is: a push reads the ImageDeploy from the apiserver, and the Deployment from the cache that saw its write. */
    @Override
    public PushKey forStatus() {
        return this;
    }
}
