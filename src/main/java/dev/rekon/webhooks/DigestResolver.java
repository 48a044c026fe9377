package dev.rekon.webhooks;

import java.util.Optional;

/**
 * Reads the manifest digest a tag points at, for webhooks that carry no digest (Docker Hub, Quay). Implemented by
 * the registry client; throws {@link dev.rekon.core.TransientFailureException} when the registry is unreachable.
 */
public interface DigestResolver {

    /** @return the digest, or empty when the registry does not know the tag (or cannot be asked) */
    Optional<String> resolve(String registry, String repository, String tag);
}
