package dev.rekon.registry;

import static dev.rekon.registry.RegistryClient.DOCKER_LIST;
import static dev.rekon.registry.RegistryClient.DOCKER_MANIFEST;
import static dev.rekon.registry.RegistryClient.OCI_INDEX;
import static dev.rekon.registry.RegistryClient.OCI_MANIFEST;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A manifest as a registry answered it, and what Rekon makes of it: its digest (of the bytes as served), its media
 * type (the body's own, else the Content-Type; only OCI and Docker v2.2 ones are accepted), and for an index or
 * manifest list, which entry an image is read from (linux/amd64, else the first).
 */
record RegistryManifest(String digest, String mediaType, JsonNode json) {

    static final String ACCEPT = String.join(", ", OCI_MANIFEST, DOCKER_MANIFEST, OCI_INDEX, DOCKER_LIST);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The manifest {@code ref} (a tag or digest) of {@code reference}'s repository. */
    static RegistryManifest fetch(RegistrySession s, ImageReference reference, String ref) {
        HttpResponse<byte[]> r = s.send("GET", path(reference, ref), ACCEPT);
        String mediaType = r.headers().firstValue("Content-Type").orElse("").split(";")[0].trim();
        JsonNode json;
        try {
            json = JSON.readTree(r.body());
        } catch (IOException e) {
            throw RegistryFailures.permanent("InvalidImage", "manifest of " + reference + " is not JSON");
        }
        if (json.hasNonNull("mediaType")) {
            mediaType = json.get("mediaType").asText();
        }
        if (!List.of(OCI_MANIFEST, DOCKER_MANIFEST, OCI_INDEX, DOCKER_LIST).contains(mediaType)) {
            throw RegistryFailures.permanent("UnsupportedManifest", "manifest of " + reference + " has media type '"
                    + mediaType + "'; push it as an OCI or Docker v2.2 image");
        }
        return new RegistryManifest(RegistryClient.sha256(r.body()), mediaType, json);
    }

    static String path(ImageReference reference, String ref) {
        return "/v2/" + reference.repository() + "/manifests/" + ref;
    }

    boolean isIndex() {
        return OCI_INDEX.equals(mediaType) || DOCKER_LIST.equals(mediaType);
    }

    /** The digest of the index entry to read: linux/amd64, else the first one listed. */
    String platformDigest(ImageReference reference) {
        JsonNode first = null;
        for (JsonNode m : json.path("manifests")) {
            first = first == null ? m : first;
            JsonNode platform = m.path("platform");
            if ("linux".equals(platform.path("os").asText()) && "amd64".equals(platform.path("architecture").asText())) {
                return m.path("digest").asText();
            }
        }
        if (first == null) {
            throw RegistryFailures.permanent("InvalidImage", "image index " + reference + " lists no manifests");
        }
        return first.path("digest").asText();
    }
}
