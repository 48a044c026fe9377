package dev.rekon.modules.publish.source;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.publish.PublishSettings;
import dev.rekon.registry.Credential;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryClient;
import dev.rekon.registry.RegistryImage;
import dev.rekon.webhooks.PullSecretReader;
import dev.rekon.webhooks.Subscription;

/**
 * The application's {@link ComponentSource}: a {@link ComponentReader} over the registry client, verifying with the
 * keys of {@link ModuleTrust}; credentials from the Secrets of {@code rekon.modules.registry-pull-secrets} in the
 * publication namespace, else anonymous.
 */
@ApplicationScoped
public class RegistryComponentSource implements ComponentSource {

    @ConfigProperty(name = "rekon.modules.registry-pull-secrets")
    Optional<List<String>> pullSecretNames;

    @Inject
    RegistryClient registry;

    @Inject
    ModuleTrust trust;

    @Inject
    PublishSettings settings;

    @Inject
    PullSecretReader pullSecrets;

    @Override
    public ComponentRead read(String repository, String version, String namespace) {
        ComponentReader.OciReads reads = new ComponentReader.OciReads() {
            @Override
            public RegistryImage image(ImageReference reference) {
                return registry.readImage(reference, credential(reference, namespace));
            }

            @Override
            public byte[] blob(ImageReference reference, String digest) {
                return registry.readBlob(reference, credential(reference, namespace), digest);
            }
        };
        return new ComponentReader(reads, trust.verifier(), settings.maxBlobBytes()).read(repository, version);
    }

    private Optional<Credential> credential(ImageReference reference, String namespace) {
        List<String> names = pullSecretNames.orElse(List.of());
        if (names.isEmpty()) {
            return Optional.empty();
        }
        return pullSecrets.forRegistry(reference.registry(),
                List.of(new Subscription.PullSecrets(namespace, null, names)));
    }
}
