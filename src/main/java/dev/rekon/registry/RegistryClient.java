package dev.rekon.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.SSLException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads images over the Distribution HTTP API: the digest of {@code repo:tag}, and an image's manifest with its
 * config blob (Docker v2.2 and OCI media types; for an index or manifest list, the linux/amd64 entry).
 * Authenticates with basic auth or the bearer-token challenge, from an optional {@link Credential}. Speaks plain
 * HTTP only to loopback registries and those configured as insecure, after HTTPS failed, as docker does.
 */
public class RegistryClient {

    public static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    public static final String OCI_INDEX = "application/vnd.oci.image.index.v1+json";
    public static final String DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";
    public static final String DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json";
    static final String ACCEPT = String.join(", ", OCI_MANIFEST, DOCKER_MANIFEST, OCI_INDEX, DOCKER_LIST);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Told of every HTTP request sent to a registry (token requests included), e.g. to count them. */
    @FunctionalInterface
    public interface RequestListener {
        /** @param status the HTTP status, or 0 when no answer came */
        void requested(String host, String method, int status);
    }

    private final HttpClient http;
    private final Set<String> insecure;
    private final Duration timeout;
    private final RequestListener listener;
    private final Map<String, String> plainHttpHosts = new ConcurrentHashMap<>();

    /** @param insecureRegistries hosts (host:port) that may speak plain HTTP besides loopback */
    public RegistryClient(Set<String> insecureRegistries, Duration timeout) {
        this(insecureRegistries, timeout, (host, method, status) -> {
        });
    }

    public RegistryClient(Set<String> insecureRegistries, Duration timeout, RequestListener listener) {
        this.insecure = Set.copyOf(insecureRegistries);
        this.timeout = timeout;
        this.listener = listener;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The manifest digest {@code reference} points at now (for a digest reference, checks it exists). */
    public String readDigest(ImageReference reference, Optional<Credential> credential) {
        Session s = new Session(reference, credential);
        HttpResponse<byte[]> r = s.send("HEAD", manifestPath(reference, reference.manifestReference()), ACCEPT);
        return r.headers().firstValue("Docker-Content-Digest").orElseGet(() -> readManifest(s, reference).digest);
    }

    /** The image's manifest (resolved to linux/amd64 through an index) and its config. */
    public RegistryImage readImage(ImageReference reference, Optional<Credential> credential) {
        Session s = new Session(reference, credential);
        Manifest m = readManifest(s, reference);
        if (m.isIndex()) {
            String platform = pickPlatform(reference, m.json);
            m = fetchManifest(s, reference, platform);
        }
        JsonNode configDesc = m.json.path("config");
        byte[] config = s.blob(configDesc.path("digest").asText());
        List<RegistryImage.Layer> layers = new ArrayList<>();
        for (JsonNode l : m.json.path("layers")) {
            layers.add(new RegistryImage.Layer(l.path("digest").asText(), l.path("size").asLong(), l.path("mediaType").asText()));
        }
        try {
            return new RegistryImage(reference, m.digest, m.mediaType, layers, JSON.readTree(config));
        } catch (IOException e) {
            throw RegistryException.permanent("InvalidImage", "config blob of " + reference + " is not JSON");
        }
    }

    /**
     * The bytes of one blob of {@code reference}'s repository, checked against {@code digest} (sha256): a blob
     * whose content does not hash to its name fails as {@code DigestMismatch}.
     */
    public byte[] readBlob(ImageReference reference, Optional<Credential> credential, String digest) {
        byte[] body = new Session(reference, credential).blob(digest);
        if (!sha256(body).equals(digest)) {
            throw RegistryException.permanent("DigestMismatch", "registry " + reference.registry() + " returned blob "
                    + digest + " of " + reference.repository() + " with content digesting to " + sha256(body));
        }
        return body;
    }

    private Manifest readManifest(Session s, ImageReference reference) {
        Manifest m = fetchManifest(s, reference, reference.manifestReference());
        if (reference.digest() != null && !reference.digest().equals(m.digest)) {
            throw RegistryException.permanent("DigestMismatch", "registry returned a manifest with digest " + m.digest
                    + " for " + reference);
        }
        return m;
    }

    private Manifest fetchManifest(Session s, ImageReference reference, String ref) {
        HttpResponse<byte[]> r = s.send("GET", manifestPath(reference, ref), ACCEPT);
        String mediaType = r.headers().firstValue("Content-Type").orElse("").split(";")[0].trim();
        JsonNode json;
        try {
            json = JSON.readTree(r.body());
        } catch (IOException e) {
            throw RegistryException.permanent("InvalidImage", "manifest of " + reference + " is not JSON");
        }
        if (json.hasNonNull("mediaType")) {
            mediaType = json.get("mediaType").asText();
        }
        if (!List.of(OCI_MANIFEST, DOCKER_MANIFEST, OCI_INDEX, DOCKER_LIST).contains(mediaType)) {
            throw RegistryException.permanent("UnsupportedManifest", "manifest of " + reference + " has media type '"
                    + mediaType + "'; push it as an OCI or Docker v2.2 image");
        }
        return new Manifest(sha256(r.body()), mediaType, json);
    }

    private static String pickPlatform(ImageReference reference, JsonNode index) {
        JsonNode first = null;
        for (JsonNode m : index.path("manifests")) {
            first = first == null ? m : first;
            if ("linux".equals(m.path("platform").path("os").asText()) && "amd64".equals(m.path("platform").path("architecture").asText())) {
                return m.path("digest").asText();
            }
        }
        if (first == null) {
            throw RegistryException.permanent("InvalidImage", "image index " + reference + " lists no manifests");
        }
        return first.path("digest").asText();
    }

    private static String manifestPath(ImageReference r, String ref) {
        return "/v2/" + r.repository() + "/manifests/" + ref;
    }

    static String sha256(byte[] body) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    boolean mayUsePlainHttp(String host) {
        String name = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1) : host.split(":")[0];
        return insecure.contains(host) || name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]");
    }

    private record Manifest(String digest, String mediaType, JsonNode json) {
        boolean isIndex() {
            return OCI_INDEX.equals(mediaType) || DOCKER_LIST.equals(mediaType);
        }
    }

    /** One image's requests: remembers the scheme and the Authorization the registry accepted. */
    private final class Session {
        private final ImageReference reference;
        private final Optional<Credential> credential;
        private String authorization;

        Session(ImageReference reference, Optional<Credential> credential) {
            this.reference = reference;
            this.credential = credential;
        }

        byte[] blob(String digest) {
            HttpResponse<byte[]> r = send("GET", "/v2/" + reference.repository() + "/blobs/" + digest, "*/*");
            return r.body();
        }

        HttpResponse<byte[]> send(String method, String path, String accept) {
            String host = reference.apiHost();
            HttpResponse<byte[]> r = exchange(method, URI.create(base(host) + path), accept, authorization);
            if (r.statusCode() == 401 && authorization == null) {
                authorization = RegistryAuth.answer(reference, credential,
                        r.headers().firstValue("WWW-Authenticate").orElse(""), this::exchangeToken);
                r = exchange(method, URI.create(base(host) + path), accept, authorization);
            }
            if (r.statusCode() >= 300 && r.statusCode() < 400 && r.headers().firstValue("Location").isPresent()) {
                // Storage redirects (S3, GCS) must not receive the registry's credentials.
                URI next = URI.create(base(host) + path).resolve(r.headers().firstValue("Location").get());
                r = exchange(method, next, accept, null);
            }
            return RegistryErrors.check(r, reference);
        }

        HttpResponse<byte[]> exchangeToken(URI uri, String auth) {
            return exchange("GET", uri, "application/json", auth);
        }

        private String base(String host) {
            return plainHttpHosts.containsKey(host) ? "http://" + host : "https://" + host;
        }

        private HttpResponse<byte[]> exchange(String method, URI uri, String accept, String auth) {
            HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", accept)
                    .method(method, HttpRequest.BodyPublishers.noBody());
            if (auth != null) {
                b.header("Authorization", auth);
            }
            int status = 0;
            try {
                HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                status = r.statusCode();
                return r;
            } catch (SSLException e) {
                String host = uri.getRawAuthority();
                if ("https".equals(uri.getScheme()) && mayUsePlainHttp(host)) {
                    plainHttpHosts.put(host, "http");
                    return exchange(method, URI.create("http" + uri.toString().substring(5)), accept, auth);
                }
                throw RegistryException.permanent("RegistryTlsFailed", "TLS to " + host + " failed (" + e.getMessage()
                        + "); if it speaks plain HTTP, list it in rekon.registry.insecure");
            } catch (IOException e) {
                throw RegistryException.retryable("registry " + uri.getRawAuthority() + " unreachable: " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw RegistryException.retryable("interrupted while reading " + reference, e);
            } finally {
                listener.requested(uri.getRawAuthority(), method, status);
            }
        }
    }
}
