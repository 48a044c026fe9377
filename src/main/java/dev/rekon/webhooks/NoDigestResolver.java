package dev.rekon.webhooks;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.DefaultBean;

/** Used until a registry client provides a {@link DigestResolver}: pushes without a digest are routed by tag alone. */
@DefaultBean
@ApplicationScoped
public class NoDigestResolver implements DigestResolver {

    @Override
    public Optional<String> resolve(ImagePushed push, List<Subscription.PullSecrets> credentials) {
        return Optional.empty();
    }
}
