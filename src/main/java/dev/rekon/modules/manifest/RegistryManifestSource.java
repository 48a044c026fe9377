package dev.rekon.modules.manifest;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.registry.Credential;
import dev.rekon.registry.RegistryClient;
import dev.rekon.registry.RegistryConfig;
import dev.rekon.webhooks.PullSecretReader;
import dev.rekon.webhooks.Subscription;

/**
 * The application's {@link ManifestSource}: a {@link ManifestReader} over the registry client and HTTP(S), under
 * the signature policy of {@link ModuleTrust}. Registry credentials come from the Secrets named in
 * {@code rekon.modules.registry-pull-secrets} (dockerconfigjson) in the ModuleTemplate's namespace; without
 * them, or when Rekon may not read them, the registry is read anonymously.
 */
@ApplicationScoped
public class RegistryManifestSource implements ManifestSource {

    /** Pull Secrets, in each ModuleTemplate's namespace, holding credentials for the module registries. */
    @ConfigProperty(name = "rekon.modules.registry-pull-secrets")
    Optional<List<String>> pullSecretNames;

    @Inject
    RegistryClient registry;

    @Inject
    RegistryConfig registryConfig;

    @Inject
    ModuleTrust trust;

    @Inject
    PullSecretReader pullSecrets;

    private ManifestReader reader;

    @PostConstruct
    void build() {
        RegistryManifestGateway gateway = new RegistryManifestGateway(registry, this::credential,
                Set.copyOf(registryConfig.insecure().orElse(List.of())), registryConfig.timeout());
        reader = new ManifestReader(gateway, trust.verifier(), trust.policy().requireSignature());
    }

    @Override
    public ModuleManifest fetch(ModuleTemplateView moduleTemplate) {
        return reader.fetch(moduleTemplate);
    }

    @Override
    public Optional<String> pinned(ModuleTemplateView moduleTemplate) {
        return reader.pinned(moduleTemplate);
    }

    private Optional<Credential> credential(ObjectRef template, String registryHost) {
        List<String> names = pullSecretNames.orElse(List.of());
        if (names.isEmpty() || template.namespace() == null) {
            return Optional.empty();
        }
        return pullSecrets.forRegistry(registryHost, List.of(new Subscription.PullSecrets(template.namespace(), null,
                names)));
    }
}
