package dev.rekon.webhooks;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

/** A registry that knows one tag, standing in for the registry client in tests of the webhook layer. */
@Alternative
@ApplicationScoped
public class KnownDigests implements DigestResolver {

    private final AtomicInteger asked = new AtomicInteger();

    /** How often the registry was asked, through a method (the test holds a client proxy). */
    public int asked() {
        return asked.get();
    }

    static final String DIGEST = "sha256:0d4b7a8e3e8c8ff1a9b5a6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f9012";

    @Override
    public Optional<String> resolve(ImagePushed push, List<Subscription.PullSecrets> credentials) {
        asked.incrementAndGet();
        return "docker.io/acme/web:v1.4.2".equals(push.repositoryReference() + ":" + push.tag()) ? Optional.of(DIGEST)
                : Optional.empty();
    }
}
