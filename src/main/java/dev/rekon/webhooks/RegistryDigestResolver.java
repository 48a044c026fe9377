package dev.rekon.webhooks;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryClient;

/**
 * Reads the digest of a pushed tag from its registry for webhooks that carry none, with the first credential
 * for that registry among the subscribers' pull secrets (anonymously when there is none, answering the
 * registry's token challenge when it asks). A tag the registry does not show (not found, private) resolves to
 * nothing, so the push is routed by tag; an unreachable registry is a transient failure and the sender retries.
 */
@ApplicationScoped
public class RegistryDigestResolver implements DigestResolver {

    private static final Logger LOG = Logger.getLogger(RegistryDigestResolver.class);

    @Inject
    RegistryClient registry;

    @Inject
    PullSecretReader secrets;

    @Override
    public Optional<String> resolve(ImagePushed push, List<Subscription.PullSecrets> credentials) {
        ImageReference ref = new ImageReference(push.registry(), push.repository(), push.tag(), null);
        try {
            return Optional.of(registry.readDigest(ref, secrets.forRegistry(ref.registry(), credentials)));
        } catch (TransientFailureException e) {
            throw new TransientFailureException("cannot read the digest of " + ref + ": " + e.getMessage(), e);
        } catch (RefusedException e) {
            // Without a digest a push is still routed, by its tag: a refusal narrows the match, it rejects nothing.
            LOG.infof("no digest for %s (%s: %s); routing the push by tag", ref, e.reason(), e.getMessage());
            return Optional.empty();
        }
    }
}
