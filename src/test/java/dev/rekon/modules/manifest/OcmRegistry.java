package dev.rekon.modules.manifest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.modules.ocm.TestSigning;

/**
 * Pushes OCM component versions and OCI artifacts to a real registry over the Distribution API, in OCM's OCI
 * layout: repository {@code component-descriptors/<component>}, tag = version, a config naming the
 * descriptor layer (a tar holding {@code component-descriptor.yaml}), and the local blobs as further layers.
 */
public final class OcmRegistry {

    public static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    static final String OCM_CONFIG = "application/vnd.ocm.software.component.config.v1+json";
    static final String DESCRIPTOR_LAYER = "application/vnd.ocm.software.component-descriptor.v2+yaml+tar";

    private final String hostPort;
    private final String authorization;
    private final HttpClient http = HttpClient.newHttpClient();

    /** @param userPassword {@code user:password} for basic auth, or null */
    public OcmRegistry(String hostPort, String userPassword) {
        this.hostPort = hostPort;
        this.authorization = userPassword == null ? null
                : "Basic " + Base64.getEncoder().encodeToString(userPassword.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Pushes the raw manifest as a local blob and the descriptor (already pointing at it, e.g. by
     * {@link ManifestFixtures#localBlobDescriptor}) as the component version; returns the version's manifest digest.
     */
    public String pushComponent(ObjectNode descriptor, byte[] rawManifest) throws IOException, InterruptedException {
        return pushComponent(descriptor, rawManifest, new byte[0][]);
    }

    /** As {@link #pushComponent(ObjectNode, byte[])}, with more local blobs (a default CR, a ModuleTemplate). */
    public String pushComponent(ObjectNode descriptor, byte[] rawManifest, byte[]... moreBlobs)
            throws IOException, InterruptedException {
        return pushComponent(true, descriptor, rawManifest, moreBlobs);
    }

    /**
     * As {@link #pushComponent(ObjectNode, byte[], byte[]...)}, but the manifest is put by its digest and no tag
     * names it: the registry's state between storing a pushed manifest and linking its tag.
     */
    public String pushComponentUntagged(ObjectNode descriptor, byte[] rawManifest, byte[]... moreBlobs)
            throws IOException, InterruptedException {
        return pushComponent(false, descriptor, rawManifest, moreBlobs);
    }

    private String pushComponent(boolean tagged, ObjectNode descriptor, byte[] rawManifest, byte[]... moreBlobs)
            throws IOException, InterruptedException {
        String component = descriptor.path("component").path("name").asText();
        String version = descriptor.path("component").path("version").asText();
        String repo = "component-descriptors/" + component;
        String raw = pushBlob(repo, rawManifest);
        byte[] layer = ManifestFixtures.tar(Map.of("component-descriptor.yaml",
                new YAMLMapper().writeValueAsString(descriptor)));
        String layerDigest = pushBlob(repo, layer);
        ObjectNode config = TestSigning.JSON.createObjectNode();
        config.putObject("componentDescriptorLayer").put("mediaType", DESCRIPTOR_LAYER).put("digest", layerDigest)
                .put("size", layer.length);
        byte[] configBytes = TestSigning.JSON.writeValueAsBytes(config);
        ObjectNode manifest = manifest(OCM_CONFIG, pushBlob(repo, configBytes), configBytes.length);
        manifest.withArray("layers").addObject().put("mediaType", DESCRIPTOR_LAYER).put("digest", layerDigest)
                .put("size", layer.length);
        manifest.withArray("layers").addObject().put("mediaType", "application/x-tar").put("digest", raw)
                .put("size", rawManifest.length);
        for (byte[] blob : moreBlobs) {
            manifest.withArray("layers").addObject().put("mediaType", "application/octet-stream")
                    .put("digest", pushBlob(repo, blob)).put("size", blob.length);
        }
        return pushManifest(repo, tagged ? version : ManifestFixtures.digest(TestSigning.JSON.writeValueAsBytes(manifest)),
                manifest);
    }

    /** An OCI artifact whose one layer is {@code content}; returns its manifest digest. */
    public String pushArtifact(String repo, String tag, byte[] content, String mediaType)
            throws IOException, InterruptedException {
        byte[] empty = "{}".getBytes(StandardCharsets.UTF_8);
        ObjectNode manifest = manifest("application/vnd.oci.empty.v1+json", pushBlob(repo, empty), empty.length);
        manifest.withArray("layers").addObject().put("mediaType", mediaType).put("digest", pushBlob(repo, content))
                .put("size", content.length);
        return pushManifest(repo, tag, manifest);
    }

    private static ObjectNode manifest(String configType, String configDigest, int configSize) {
        ObjectNode m = TestSigning.JSON.createObjectNode().put("schemaVersion", 2).put("mediaType", OCI_MANIFEST);
        m.putObject("config").put("mediaType", configType).put("digest", configDigest).put("size", configSize);
        return m;
    }

    public String pushBlob(String repo, byte[] content) throws IOException, InterruptedException {
        HttpResponse<String> start = send(HttpRequest.newBuilder(uri("/v2/" + repo + "/blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()), 202);
        String location = start.headers().firstValue("Location").orElseThrow();
        String digest = ManifestFixtures.digest(content);
        URI put = uri("/").resolve(location + (location.contains("?") ? "&" : "?") + "digest=" + digest);
        send(HttpRequest.newBuilder(put).header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content)), 201);
        return digest;
    }

    public String pushManifest(String repo, String tag, ObjectNode manifest) throws IOException, InterruptedException {
        byte[] body = TestSigning.JSON.writeValueAsBytes(manifest);
        send(HttpRequest.newBuilder(uri("/v2/" + repo + "/manifests/" + tag)).header("Content-Type", OCI_MANIFEST)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)), 201);
        return ManifestFixtures.digest(body);
    }

    /** The plain-HTTP URL of a blob, as a community module's link could name it. */
    public String blobUrl(String repo, String digest) {
        return "http://" + hostPort + "/v2/" + repo + "/blobs/" + digest;
    }

    private URI uri(String path) {
        return URI.create("http://" + hostPort + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request, int expected) throws IOException, InterruptedException {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != expected) {
            throw new IOException("registry " + hostPort + " answered " + r.statusCode() + ": " + r.body());
        }
        return r;
    }
}
