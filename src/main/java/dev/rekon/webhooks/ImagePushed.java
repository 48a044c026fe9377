package dev.rekon.webhooks;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The one fact every registry webhook is reduced to: an image manifest was pushed to {@code registry}
 * (host[:port]) under {@code repository}, optionally with a {@code tag}, with manifest {@code digest}.
 * The digest is null only when the payload carried none and no {@link DigestResolver} could read it;
 * {@code eventId} identifies the delivery for de-duplication (null when the sender gives none). {@code readFrom}
 * says which payload fields the repository or tag were read from when not the ones the format documents (an older
 * payload shape, a missing or disagreeing field), so that such a reading is never silent; null otherwise.
 */
@RegisterForReflection
public record ImagePushed(String registry, String repository, String tag, String digest, String eventId,
        @JsonInclude(JsonInclude.Include.NON_NULL) String readFrom) {

    public ImagePushed(String registry, String repository, String tag, String digest, String eventId) {
        this(registry, repository, tag, digest, eventId, null);
    }

    public ImagePushed withDigest(String resolved) {
        return new ImagePushed(registry, repository, tag, resolved, eventId, readFrom);
    }

    public ImagePushed withEventId(String id) {
        return new ImagePushed(registry, repository, tag, digest, id, readFrom);
    }

    public ImagePushed withReadFrom(String fields) {
        return new ImagePushed(registry, repository, tag, digest, eventId, fields);
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
