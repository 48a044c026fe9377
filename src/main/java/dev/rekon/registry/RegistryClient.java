package dev.rekon.registry;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads images over the Distribution HTTP API: the digest of {@code repo:tag}, and an image's manifest with its
 * config blob (Docker v2.2 and OCI media types; for an index or manifest list, the linux/amd64 entry:
 * {@link RegistryManifest}), and the tags of a repository and the repositories of a registry. Authenticates
 * with basic auth or the bearer-token challenge, from an optional {@link Credential} ({@link RegistrySession}). Speaks plain HTTP only to loopback registries and those configured
 * as insecure, after HTTPS failed, as docker does ({@link RegistryTransport}).
 */
public class RegistryClient {

    public static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    public static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
    public static final String DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
    public static final String DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Told of every HTTP request sent to a registry (token requests included), e.g. to count them. */
    @FunctionalInterface
    public interface RequestListener {
        /** @param status the HTTP status, or 0 when no answer came */
        void requested(String host, String method, int status);
    }

    private final RegistryTransport transport;

    /** @param insecureRegistries hosts (host:port) that may speak plain HTTP besides loopback */
    public RegistryClient(Set<String> insecureRegistries, Duration timeout) {
        this(insecureRegistries, timeout, (host, method, status) -> {
        });
    }

    public RegistryClient(Set<String> insecureRegistries, Duration timeout, RequestListener listener) {
        this.transport = new RegistryTransport(insecureRegistries, timeout, listener);
    }

    /** The manifest digest {@code reference} points at now (for a digest reference, checks it exists). */
    public String readDigest(ImageReference reference, Optional<Credential> credential) {
        RegistrySession s = session(reference, credential);
        HttpResponse<byte[]> r = s.send("HEAD", RegistryManifest.path(reference, reference.manifestReference()),
                RegistryManifest.ACCEPT);
        return r.headers().firstValue("Docker-Content-Digest").orElseGet(() -> readManifest(s, reference).digest());
    }

    /** The image's manifest (resolved to linux/amd64 through an index) and its config. */
    public RegistryImage readImage(ImageReference reference, Optional<Credential> credential) {
        RegistrySession s = session(reference, credential);
        return image(reference, s, platformManifest(s, reference));
    }

    /** The image's manifest, resolved to the linux/amd64 entry when the reference names an index. */
    private static RegistryManifest platformManifest(RegistrySession s, ImageReference reference) {
        RegistryManifest m = readManifest(s, reference);
        return m.isIndex() ? RegistryManifest.fetch(s, reference, m.platformDigest(reference)) : m;
    }

    private static RegistryImage image(ImageReference reference, RegistrySession s, RegistryManifest m) {
        byte[] config = s.blob(m.json().path("config").path("digest").asText());
        try {
            return new RegistryImage(reference, m.digest(), m.mediaType(), layers(m), JSON.readTree(config));
        } catch (IOException e) {
            throw RegistryFailures.permanent("InvalidImage", "config blob of " + reference + " is not JSON");
        }
    }

    private static List<RegistryImage.Layer> layers(RegistryManifest m) {
        List<RegistryImage.Layer> layers = new ArrayList<>();
        for (JsonNode l : m.json().path("layers")) {
            layers.add(new RegistryImage.Layer(l.path("digest").asText(), l.path("size").asLong(), l.path("mediaType").asText()));
        }
        return layers;
    }

    /** An image as {@link #readImage} reads it, with the bytes of the layers read beside its config. */
    public record ImageBlobs(RegistryImage image, Map<String, byte[]> blobs) {
    }

    /**
     * {@link #readImage}, reading beside the config (on {@code reads}) the layers {@code alsoRead} selects, each
     * checked against its digest as {@link #readBlob} does. A layer that cannot be read is left out: whoever needs
     * it reads it again and meets the failure there.
     */
    public ImageBlobs readImageAndBlobs(ImageReference reference, Optional<Credential> credential,
            Predicate<RegistryImage.Layer> alsoRead, Executor reads) {
        RegistrySession s = session(reference, credential);
        RegistryManifest m = platformManifest(s, reference);
        Map<String, CompletableFuture<byte[]>> layers = new LinkedHashMap<>();
        for (RegistryImage.Layer l : layers(m)) {
            if (alsoRead.test(l) && !layers.containsKey(l.digest())) {
                layers.put(l.digest(), CompletableFuture.supplyAsync(() -> checked(reference, l.digest(),
                        s.blob(l.digest())), reads).exceptionally(e -> null));
            }
        }
        RegistryImage image = image(reference, s, m);
        Map<String, byte[]> blobs = new LinkedHashMap<>();
        layers.forEach((digest, read) -> {
            byte[] bytes = read.join();
            if (bytes != null) {
                blobs.put(digest, bytes);
            }
        });
        return new ImageBlobs(image, blobs);
    }

    /**
     * The bytes of one blob of {@code reference}'s repository, checked against {@code digest} (sha256): a blob
     * whose content does not hash to its name fails as {@code DigestMismatch}.
     */
    public byte[] readBlob(ImageReference reference, Optional<Credential> credential, String digest) {
        return checked(reference, digest, session(reference, credential).blob(digest));
    }

    private static byte[] checked(ImageReference reference, String digest, byte[] body) {
        if (!sha256(body).equals(digest)) {
            throw RegistryFailures.permanent("DigestMismatch", "registry " + reference.registry() + " returned blob "
                    + digest + " of " + reference.repository() + " with content digesting to " + sha256(body));
        }
        return body;
    }

    /** Every tag of {@code reference}'s repository ({@code /v2/<name>/tags/list}, all pages). */
    public List<String> listTags(ImageReference reference, Optional<Credential> credential) {
        return RegistryListing.all(session(reference, credential), "/v2/" + reference.repository() + "/tags/list?n="
                + RegistryListing.PAGE, "tags");
    }

    /**
     * Every repository of {@code reference}'s registry ({@code /v2/_catalog}, all pages). Registries that keep
     * their catalog to themselves (most public ones) fail with a {@link dev.rekon.core.RefusedException}.
     */
    public List<String> catalog(ImageReference reference, Optional<Credential> credential) {
        return RegistryListing.all(session(reference, credential), "/v2/_catalog?n=" + RegistryListing.PAGE,
                "repositories");
    }

    private RegistrySession session(ImageReference reference, Optional<Credential> credential) {
        return new RegistrySession(transport, reference, credential);
    }

    private static RegistryManifest readManifest(RegistrySession s, ImageReference reference) {
        RegistryManifest m = RegistryManifest.fetch(s, reference, reference.manifestReference());
        if (reference.digest() != null && !reference.digest().equals(m.digest())) {
            throw RegistryFailures.permanent("DigestMismatch", "registry returned a manifest with digest " + m.digest()
                    + " for " + reference);
        }
        return m;
    }

    static String sha256(byte[] body) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    boolean mayUsePlainHttp(String host) {
        return transport.mayUsePlainHttp(host);
    }
}
