package dev.rekon.webhooks;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The one fact every registry webhook is reduced to: an image manifest was pushed to {@code registry}
 * (host[:port]) under {@code repository}, optionally with a {@code tag}, with manifest {@code digest}.
 * The digest is null only when the payload carried none and no {@link DigestResolver} could read it;
 * {@code eventId} identifies the delivery for de-duplication (null when the sender gives none).
 */
@RegisterForReflection
public record ImagePushed(String registry, String repository, String tag, String digest, String eventId) {

    public ImagePushed withDigest(String resolved) {
        return new ImagePushed(registry, repository, tag, resolved, eventId);
    }

    public ImagePushed withEventId(String id) {
        return new ImagePushed(registry, repository, tag, digest, id);
    }

    /** registry/repository, the name a container image field is matched against. */
    public String repositoryReference() {
        return registry + "/" + repository;
    }

    /** registry/repository[:tag][@digest], for messages. */
    public String reference() {
        return repositoryReference() + (tag == null ? "" : ":" + tag) + (digest == null ? "" : "@" + digest);
    }
}
