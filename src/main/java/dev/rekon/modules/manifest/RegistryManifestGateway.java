package dev.rekon.modules.manifest;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.registry.Credential;
import dev.rekon.registry.HttpLinks;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryClient;
import dev.rekon.registry.RegistryImage;

/**
 * Reads manifests from OCI registries (through {@link RegistryClient}, with the credential that applies to the
 * template's namespace, else anonymously) and from links over HTTP(S). Plain HTTP links are followed only to
 * loopback and to the hosts of {@code rekon.registry.insecure}, as for registries. Errors are sorted at the registry
 * edge ({@link HttpLinks} for links); here a refusal becomes the template's, naming what to fix.
 * Reads named by a digest are kept ({@link ContentCache}); tags and links are read each time.
 */
public final class RegistryManifestGateway implements ManifestFetcher {

    private final RegistryClient registry;
    private final BiFunction<ObjectRef, String, Optional<Credential>> credentials;
    private final Set<String> insecure;
    private final HttpClient http;
    private final Duration timeout;
    /** Larger blobs are read again each time: 64 kept entries stay within 64 MiB. */
    static final int CACHED_BLOB_BYTES = 1024 * 1024;

    private final ContentCache cache = new ContentCache(64);

    /** @param credentials the credential for (template, registry host), or empty to read anonymously */
    public RegistryManifestGateway(RegistryClient registry, BiFunction<ObjectRef, String, Optional<Credential>> credentials,
            Set<String> insecureHosts, Duration timeout) {
        this.registry = registry;
        this.credentials = credentials;
        this.insecure = Set.copyOf(insecureHosts);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    @Override
    public byte[] blob(ObjectRef template, String repository, String digest) {
        ImageReference ref = reference(template, repository + "@" + digest);
        return cache.get(template.namespace() + " " + ref, b -> b.length <= CACHED_BLOB_BYTES, () -> registry(template,
                () -> registry.readBlob(ref, credentials.apply(template, ref.registry()), digest),
                "blob " + digest + " of " + repository));
    }

    @Override
    public RegistryImage artifact(ObjectRef template, String imageReference) {
        ImageReference ref = reference(template, imageReference);
        Supplier<RegistryImage> read = () -> registry(template,
                () -> registry.readImage(ref, credentials.apply(template, ref.registry())), "artifact " + imageReference);
        return ref.digest() == null ? read.get() : cache.get(template.namespace() + " " + ref, i -> true, read);
    }

    @Override
    public byte[] link(ObjectRef template, URI uri) {
        if ("http".equals(uri.getScheme()) && !plainHttpAllowed(uri)) {
            throw ManifestReader.refused(template, "links its manifest over plain http (" + uri + "); use https, or"
                    + " list " + uri.getAuthority() + " in rekon.registry.insecure");
        }
        InputStream answered;
        try {
            answered = HttpLinks.get(http, uri, timeout, "manifest link");
        } catch (RefusedException e) {
            // A refused link is the ModuleTemplate's refusal: named by the template, with the fix there.
            throw ManifestReader.refused(template, "links its manifest to " + uri + ", which answered HTTP "
                    + e.code() + "; publish the manifest there or fix spec.resources[rawManifest].link");
        }
        try (InputStream body = answered) {
            return TarArchive.readAtMost(body, ManifestContent.MAX_BYTES);
        } catch (TarArchive.TooLarge e) {
            throw ManifestReader.refused(template, "links its manifest to " + uri + ", whose " + e.getMessage());
        } catch (IOException e) {
            throw HttpLinks.unreachable("manifest link", uri, e);
        }
    }

    private boolean plainHttpAllowed(URI uri) {
        String host = uri.getHost();
        return insecure.contains(uri.getAuthority()) || "localhost".equals(host) || "127.0.0.1".equals(host)
                || "[::1]".equals(host);
    }

    private static ImageReference reference(ObjectRef template, String text) {
        try {
            return ImageReference.parse(text);
        } catch (IllegalArgumentException e) {
            throw ManifestReader.refused(template, "names its manifest at an invalid location: " + e.getMessage());
        }
    }

    private static <T> T registry(ObjectRef template, Supplier<T> request, String what) {
        try {
            return request.get();
        } catch (TransientFailureException e) {
            // Retried as it is; the message adds which manifest read failed.
            throw new TransientFailureException("reading the manifest " + what + ": " + e.getMessage(), e);
        } catch (RefusedException e) {
            // A refused manifest is the ModuleTemplate's refusal: named by the template, with the fix there.
            if ("DigestMismatch".equals(e.reason())) {
                throw ManifestReader.refused(template, "has a manifest " + what + " that does not match its digest: it"
                        + " was tampered with or corrupted; push the manifest again (" + e.getMessage() + ")");
            }
            throw ManifestReader.refused(template, "cannot have its manifest read (" + e.reason() + ", " + what + "): "
                    + e.getMessage());
        }
    }
}
