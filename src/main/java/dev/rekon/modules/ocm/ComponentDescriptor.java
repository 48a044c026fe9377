package dev.rekon.modules.ocm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;

/**
 * The parts of an OCM component descriptor (schema v2, the {@code spec.descriptor} of a Kyma ModuleTemplate)
 * that a module release needs: its name and version, the images its OCI resources name (pinned to the digest
 * the descriptor records for them), and its signatures.
 * The raw descriptor is kept because signatures are verified over its normalised form.
 */
public record ComponentDescriptor(String name, String version, Map<String, String> images, List<Signature> signatures,
        JsonNode raw) {

    /** Resource types whose {@code access.imageReference} names a container image. */
    public static final Set<String> IMAGE_TYPES = Set.of("ociArtifact", "ociImage");

    /** One entry of {@code signatures[]}: the digest that was signed and the signature over it. */
    public record Signature(String name, String hashAlgorithm, String normalisationAlgorithm, String digest,
            String algorithm, String mediaType, String value) {
    }

    public ComponentDescriptor {
        images = Map.copyOf(images);
        signatures = List.copyOf(signatures);
    }

    /**
     * The SHA-256 manifest digest the descriptor records for an image resource, or null. The access
     * (imageReference) is not covered by OCM signatures, the digest is: pinning the image to it makes the
     * signature cover what runs.
     */
    static String signedDigest(JsonNode resource) {
        JsonNode d = resource.path("digest");
        String value = d.path("value").asText("");
        return "SHA-256".equals(d.path("hashAlgorithm").asText()) && value.matches("[0-9a-f]{64}") ? value : null;
    }

    private static String pinned(String imageReference, String digest) {
        if (digest == null) {
            return imageReference;
        }
        int at = imageReference.indexOf('@');
        return (at < 0 ? imageReference : imageReference.substring(0, at)) + "@sha256:" + digest;
    }

    /** Names of image resources without a signed digest: a signature over the descriptor does not cover them. */
    public List<String> imagesWithoutDigest() {
        List<String> names = new ArrayList<>();
        for (JsonNode r : raw.path("component").path("resources")) {
            if (IMAGE_TYPES.contains(r.path("type").asText()) && signedDigest(r) == null) {
                names.add(r.path("name").asText());
            }
        }
        return names;
    }

    /** @throws InvalidEventException when the descriptor is not an OCM v2 component descriptor */
    public static ComponentDescriptor parse(JsonNode descriptor, String where) {
        JsonNode component = descriptor == null ? null : descriptor.get("component");
        if (component == null || !component.isObject()) {
            throw new InvalidEventException(where + " has no OCM component descriptor (spec.descriptor.component);"
                    + " publish the module with an OCM schema v2 descriptor");
        }
        Map<String, String> images = new LinkedHashMap<>();
        for (JsonNode r : component.path("resources")) {
            String ref = r.path("access").path("imageReference").asText("");
            if (IMAGE_TYPES.contains(r.path("type").asText()) && !ref.isBlank()) {
                images.put(r.path("name").asText(), pinned(ref, signedDigest(r)));
            }
        }
        List<Signature> signatures = new ArrayList<>();
        for (JsonNode s : descriptor.path("signatures")) {
            JsonNode d = s.path("digest");
            JsonNode sig = s.path("signature");
            signatures.add(new Signature(s.path("name").asText(""), d.path("hashAlgorithm").asText(""),
                    d.path("normalisationAlgorithm").asText(""), d.path("value").asText(""),
                    sig.path("algorithm").asText(""), sig.path("mediaType").asText(""), sig.path("value").asText("")));
        }
        return new ComponentDescriptor(component.path("name").asText(""), component.path("version").asText(""),
                images, signatures, descriptor);
    }
}
