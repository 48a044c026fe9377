package dev.rekon.modules.publish.source;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.publish.PublishSettings;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.pipeline.LoadReads;
import dev.rekon.registry.Credential;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryClient;
import dev.rekon.registry.RegistryImage;
import dev.rekon.webhooks.PullSecretReader;
import dev.rekon.webhooks.Subscription;

/**
 * The application's {@link ComponentSource}: a {@link ComponentReader} over the registry client, verifying with the
 * keys of {@link ModuleTrust}; credentials from the Secrets of {@code rekon.modules.registry-pull-secrets} in the
 * publication namespace, else anonymous. Components are listed from the registry's {@code /v2/_catalog} (which
 * distribution, Harbor and Zot serve); a registry without one is read only at prefixes naming one component.
 * A component version is read in two round trips: its manifest, then its config beside its first small layers.
 */
@ApplicationScoped
public class RegistryComponentSource implements ComponentSource {

    /**
     * A module's descriptor, raw manifest, default CR and template are small layers: the first few are read beside
     * the config, not one round trip after another once the descriptor names them.
     */
    static final int EARLY_LAYERS = 8;
    static final long EARLY_BYTES = 1 << 20;

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
    public ComponentRead read(String repository, String version, String digest, String namespace) {
        Map<String, byte[]> early = new ConcurrentHashMap<>();
        ComponentReader.OciReads reads = new ComponentReader.OciReads() {
            @Override
            public RegistryImage image(ImageReference reference) {
                int[] left = { EARLY_LAYERS };
                long largest = Math.min(EARLY_BYTES, settings.maxBlobBytes());
                RegistryClient.ImageBlobs read = registry.readImageAndBlobs(reference, credential(reference, namespace),
                        l -> l.size() <= largest && left[0]-- > 0, LoadReads.EXECUTOR);
                early.putAll(read.blobs());
                return read.image();
            }

            @Override
            public byte[] blob(ImageReference reference, String digest) {
                byte[] read = early.remove(digest);
                return read != null ? read : registry.readBlob(reference, credential(reference, namespace), digest);
            }
        };
        return new ComponentReader(reads, trust.verifier(), settings.maxBlobBytes()).read(repository, version, digest);
    }

    @Override
    public Optional<String> digest(String repository, String version, String namespace) {
        try {
            ImageReference ref = ImageReference.parse(repository + ":" + version);
            return Optional.of(registry.readDigest(ref, credential(ref, namespace)));
        } catch (TransientFailureException e) {
            // Retried as it is; the message adds which component version's digest it was.
            throw new TransientFailureException("reading the digest of " + repository + ":" + version + ": "
                    + e.getMessage(), e);
        } catch (IllegalArgumentException | RefusedException e) {
            // Only a shortcut: without the digest the version is read in full, and that read says why it is refused.
            return Optional.empty();
        }
    }

    @Override
    public Listed repositories(String prefix, String namespace) {
        int slash = prefix.indexOf('/');
        String host = slash < 0 ? prefix : prefix.substring(0, slash);
        ImageReference any = ImageReference.parse(host + "/" + (slash < 0 ? "catalog" : prefix.substring(slash + 1)));
        Listed catalog = list(() -> registry.catalog(any, credential(any, namespace)), "the catalog of " + host);
        if (catalog.refusal() == null) {
            return new Listed(catalog.items().stream().map(r -> host + "/" + r)
                    .filter(r -> (r.equals(prefix) || r.startsWith(prefix + "/"))
                            && new PublishKey(r, "", namespace).component() != null)
                    .sorted().toList(), null);
        }
        if (new PublishKey(prefix, "", namespace).component() != null) {
            return new Listed(List.of(prefix), null);
        }
        return Listed.refused(catalog.refusal() + "; configure in rekon.modules.publish.repositories each component's"
                + " repository (<host>/<path>" + PublishKey.COMPONENT_DESCRIPTORS + "<component>) instead");
    }

    @Override
    public Listed tags(String repository, String namespace) {
        ImageReference ref;
        try {
            ref = ImageReference.parse(repository);
        } catch (IllegalArgumentException e) {
            return Listed.refused(repository + " is not a repository: " + e.getMessage());
        }
        return list(() -> registry.listTags(ref, credential(ref, namespace)), "the tags of " + repository);
    }

    private static Listed list(Supplier<List<String>> read, String what) {
        try {
            return new Listed(read.get(), null);
        } catch (TransientFailureException e) {
            // Retried as it is; the message adds which listing failed.
            throw new TransientFailureException("listing " + what + ": " + e.getMessage(), e);
        } catch (RefusedException e) {
            // A refused listing is the publication's status (what to fix), not a rejected event.
            return Listed.refused("cannot list " + what + " (" + e.reason() + "): " + e.getMessage());
        }
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
