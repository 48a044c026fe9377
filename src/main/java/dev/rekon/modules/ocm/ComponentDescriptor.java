package dev.rekon.modules.ocm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /** The resource of a module's whole manifest, as Kyma's modulectl names it. */
    public static final String RAW_MANIFEST = "raw-manifest";

    /**
     * One entry of {@code component.resources[]}: its access (not covered by signatures) and the digest the
     * descriptor records for it (covered), null when it records none.
     */
    public record Resource(String name, String type, JsonNode access, Digest digest) {

        public String accessType() {
            return access.path("type").asText("");
        }
    }

    /** A resource's recorded digest: {@code hashAlgorithm}, {@code normalisationAlgorithm} and hex {@code value}. */
    public record Digest(String hashAlgorithm, String normalisationAlgorithm, String value) {
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

    /** The image reference pinned to the hex SHA-256 digest (replacing any digest it had); unchanged for null. */
    public static String pinned(String imageReference, String digest) {
        if (digest == null) {
            return imageReference;
        }
        int at = imageReference.indexOf('@');
        return (at < 0 ? imageReference : imageReference.substring(0, at)) + "@sha256:" + digest;
    }

    /** The resource of that name, if the descriptor lists one. */
    public Optional<Resource> resource(String name) {
        for (JsonNode r : raw.path("component").path("resources")) {
            if (name.equals(r.path("name").asText())) {
                JsonNode d = r.path("digest");
                Digest digest = d.isObject() ? new Digest(d.path("hashAlgorithm").asText(""),
                        d.path("normalisationAlgorithm").asText(""), d.path("value").asText("")) : null;
                return Optional.of(new Resource(name, r.path("type").asText(""), r.path("access"), digest));
            }
        }
        return Optional.empty();
    }

    /**
     * The OCI repository the component version is stored in, {@code <baseUrl>[/<subPath>]/component-descriptors/
     * <name>} of the last repository context (the one it was transported to last), without a scheme; empty when
     * the descriptor names no OCI repository context.
     */
    public Optional<String> repository() {
        JsonNode contexts = raw.path("component").path("repositoryContexts");
        JsonNode last = contexts.size() == 0 ? null : contexts.get(contexts.size() - 1);
        String base = last == null ? "" : last.path("baseUrl").asText("").replaceFirst("^[a-zA-Z]+://", "");
        if (base.isBlank()) {
            return Optional.empty();
        }
        String sub = last.path("subPath").asText("");
        return Optional.of(trimSlashes(base) + (sub.isBlank() ? "" : "/" + trimSlashes(sub))
                + "/component-descriptors/" + name);
    }

    private static String trimSlashes(String s) {
        return s.replaceAll("^/+|/+$", "");
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
