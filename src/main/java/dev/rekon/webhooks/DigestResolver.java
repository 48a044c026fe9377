package dev.rekon.webhooks;

import java.util.List;
import java.util.Optional;

/**
 * Reads the manifest digest a tag points at, for webhooks that carry no digest (Docker Hub, Quay, some GitHub
 * payloads), with the subscribers' pull secrets. Implemented over the registry client; throws
 * {@link dev.rekon.core.TransientFailureException} when the registry is unreachable.
 */
public interface DigestResolver {

    /** @return the digest, or empty when the registry does not show the tag (or cannot be asked) */
    Optional<String> resolve(ImagePushed push, List<Subscription.PullSecrets> credentials);
}
