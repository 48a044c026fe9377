package dev.rekon.modules.publish.source;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.manifest.ManifestDocuments;
import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryImage;

/**
 * Reads one component version in OCM's OCI layout: the manifest of {@code <repository>:<version>}, its config's
 * {@code componentDescriptorLayer} (a tar holding {@code component-descriptor.yaml}, or the YAML itself), then
 * the local blobs of its {@code raw-manifest}, {@code default-cr} and {@code moduletemplate} resources, each a
 * layer of that manifest, no larger than the limit, hashing to its {@code localReference} and to the digest the
 * descriptor records for it. Anything short of that is a {@link ComponentRead.Refused} naming what to fix; an
 * unreachable registry a {@link TransientFailureException}.
 */
public final class ComponentReader {

    public static final String DEFAULT_CR = "default-cr";
    public static final String MODULE_TEMPLATE = "moduletemplate";
    static final String DESCRIPTOR_FILE = "component-descriptor.yaml";

    /** The registry reads the reader needs, credentials bound. */
    public interface OciReads {
        RegistryImage image(ImageReference reference);

        byte[] blob(ImageReference reference, String digest);
    }

    private static final YAMLMapper YAML = new YAMLMapper();

    private final OciReads oci;
    private final SignatureVerifier verifier;
    private final long maxBlobBytes;

    public ComponentReader(OciReads oci, SignatureVerifier verifier, long maxBlobBytes) {
        this.oci = oci;
        this.verifier = verifier;
        this.maxBlobBytes = maxBlobBytes;
    }

    /** Refusal as an exception inside one read, answered as {@link ComponentRead.Refused}. */
    private static final class Refusal extends RuntimeException {
        final String reason;

        Refusal(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    public ComponentRead read(String repository, String version) {
        return read(repository, version, null);
    }

    /** The component version {@code version}, its manifest read by {@code digest} when one is given. */
    public ComponentRead read(String repository, String version, String digest) {
        String where = "component version " + repository + ":" + version + (digest == null ? "" : "@" + digest);
        try {
            return new ComponentRead.Found(readChecked(repository, version, digest, where));
        } catch (Refusal r) {
            return new ComponentRead.Refused(r.reason, where + " " + r.getMessage());
        }
    }

    private ComponentVersion readChecked(String repository, String version, String digest, String where) {
        ImageReference ref;
        try {
            ref = ImageReference.parse(repository + (digest == null ? ":" + version : "@" + digest));
        } catch (IllegalArgumentException e) {
            throw new Refusal("RepositoryInvalid", "is not a valid OCI reference: " + e.getMessage());
        }
        RegistryImage image = registry(() -> oci.image(ref), "ComponentNotFound", "its manifest");
        JsonNode layerRef = image.config().path("componentDescriptorLayer");
        String layerDigest = layerRef.path("digest").asText("");
        if (layerDigest.isBlank()) {
            throw new Refusal("DescriptorInvalid", "has no componentDescriptorLayer in its config: it is not an OCM"
                    + " component version; push it with the OCM CLI (ocm transfer ctf) or modulectl");
        }
        byte[] layer = blob(ref, image, layerDigest, "componentDescriptorLayer");
        JsonNode descriptor = descriptor(layer, layerRef.path("mediaType").asText(""));
        ComponentDescriptor cd;
        try {
            cd = ComponentDescriptor.parse(descriptor, where);
        } catch (InvalidEventException e) {
            // A descriptor that does not parse is the publication's own reason, named in its status.
            throw new Refusal("DescriptorInvalid", "has a descriptor that does not parse: " + e.getMessage());
        }
        ComponentDescriptor.Resource raw = cd.resource(ComponentDescriptor.RAW_MANIFEST).orElseThrow(
                () -> new Refusal("ManifestMissing", "has no resource named '" + ComponentDescriptor.RAW_MANIFEST
                        + "'; add the module's manifest as a localBlob resource of that name"));
        Blob manifest = localBlob(ref, image, raw);
        List<ObjectNode> objects;
        try {
            objects = ManifestDocuments.objects(manifest.bytes());
        } catch (IllegalArgumentException e) {
            throw new Refusal("ManifestInvalid", "has a raw-manifest that " + e.getMessage());
        }
        ObjectNode defaultCr = cd.resource(DEFAULT_CR).map(r -> object(localBlob(ref, image, r), DEFAULT_CR, null))
                .orElse(null);
        ObjectNode template = cd.resource(MODULE_TEMPLATE)
                .map(r -> object(localBlob(ref, image, r), MODULE_TEMPLATE, "ModuleTemplate")).orElse(null);
        return new ComponentVersion(repository, version, image.digest(), descriptor, cd, objects, manifest.covered(),
                defaultCr, template, verifier.verify(cd));
    }

    private record Blob(byte[] bytes, boolean covered) {
    }

    private Blob localBlob(ImageReference ref, RegistryImage image, ComponentDescriptor.Resource r) {
        String kind = r.accessType().replaceFirst("/v1$", "").toLowerCase(Locale.ROOT);
        if (!kind.equals("localblob")) {
            throw new Refusal("UnsupportedAccess", "has resource '" + r.name() + "' with access type '"
                    + r.accessType() + "'; publish it as a localBlob of the component version");
        }
        String digest = r.access().path("localReference").asText("");
        if (!digest.matches("sha256:[0-9a-f]{64}")) {
            throw new Refusal("DescriptorInvalid", "has resource '" + r.name() + "' whose localReference '" + digest
                    + "' is not a sha256 digest");
        }
        byte[] bytes = blob(ref, image, digest, "resource '" + r.name() + "'");
        ComponentDescriptor.Digest recorded = r.digest();
        boolean covered = recorded != null && "SHA-256".equals(recorded.hashAlgorithm());
        if (covered && !recorded.value().equalsIgnoreCase(sha256(bytes))) {
            throw new Refusal("DigestMismatch", "has resource '" + r.name() + "' whose descriptor records digest "
                    + recorded.value() + " but whose blob digests to " + sha256(bytes)
                    + "; push the blob the descriptor was made for");
        }
        return new Blob(bytes, covered);
    }

    /** A layer of the component version's manifest, checked for size before it is read and for digest after. */
    private byte[] blob(ImageReference ref, RegistryImage image, String digest, String what) {
        Optional<RegistryImage.Layer> layer = image.layers().stream().filter(l -> digest.equals(l.digest())).findFirst();
        if (layer.isEmpty()) {
            throw new Refusal("BlobMissing", "names blob " + digest + " (" + what + "), which its manifest does not"
                    + " list as a layer; push the component version with all its local blobs");
        }
        if (layer.get().size() > maxBlobBytes) {
            throw new Refusal("BlobTooLarge", "has blob " + digest + " (" + what + ") of " + layer.get().size()
                    + " bytes, over the limit of " + maxBlobBytes + " (rekon.modules.publish.max-blob-bytes)");
        }
        byte[] bytes = registry(() -> oci.blob(ref, digest), "BlobMissing", "blob " + digest + " (" + what + ")");
        if (bytes.length > maxBlobBytes) {
            throw new Refusal("BlobTooLarge", "has blob " + digest + " (" + what + ") of " + bytes.length
                    + " bytes, over the limit of " + maxBlobBytes + " (rekon.modules.publish.max-blob-bytes)");
        }
        return bytes;
    }

    private static JsonNode descriptor(byte[] layer, String mediaType) {
        byte[] yaml = layer;
        if (ManifestDocuments.isTar(layer) || mediaType.endsWith("+tar")) {
            Map<String, byte[]> files;
            try {
                files = ManifestDocuments.tarFiles(layer);
            } catch (IllegalArgumentException e) {
                throw new Refusal("DescriptorInvalid", "has a componentDescriptorLayer that " + e.getMessage());
            }
            yaml = files.get(DESCRIPTOR_FILE);
            if (yaml == null) {
                throw new Refusal("DescriptorInvalid", "has a componentDescriptorLayer without " + DESCRIPTOR_FILE
                        + " (it holds " + files.keySet() + ")");
            }
        }
        try {
            JsonNode d = YAML.readTree(yaml);
            if (d == null || !d.isObject()) {
                throw new Refusal("DescriptorInvalid", "has a descriptor that is not a YAML object");
            }
            return d;
        } catch (IOException e) {
            throw new Refusal("DescriptorInvalid", "has a descriptor that is not YAML: " + firstLine(e));
        }
    }

    /** A resource holding one Kubernetes object (of {@code kind}, when given). */
    private static ObjectNode object(Blob blob, String resource, String kind) {
        String text = new String(blob.bytes(), StandardCharsets.UTF_8);
        try {
            JsonNode o = YAML.readTree(text);
            if (o instanceof ObjectNode obj && obj.path("apiVersion").isTextual() && obj.path("kind").isTextual()
                    && (kind == null || kind.equals(obj.path("kind").asText()))
                    && (kind != null || !obj.path("metadata").path("name").asText("").isBlank())) {
                return obj;
            }
        } catch (IOException e) {
            throw new Refusal(kind == null ? "DefaultCrInvalid" : "TemplateInvalid", "has resource '" + resource
                    + "' that is not YAML: " + firstLine(e));
        }
        throw new Refusal(kind == null ? "DefaultCrInvalid" : "TemplateInvalid", "has resource '" + resource
                + "' that is not one Kubernetes object with apiVersion, kind"
                + (kind == null ? " and metadata.name" : " " + kind));
    }

    private static <T> T registry(java.util.function.Supplier<T> read, String notFound, String what) {
        try {
            return read.get();
        } catch (TransientFailureException e) {
            // Retried as it is; the message adds which read of the component version failed.
            throw new TransientFailureException("reading " + what + ": " + e.getMessage(), e);
        } catch (RefusedException e) {
            // A refused component is the publication's own reason (not found, DigestMismatch), named in its status.
            String reason = "ImageNotFound".equals(e.reason()) ? notFound
                    : "DigestMismatch".equals(e.reason()) ? "DigestMismatch" : "RegistryRefused";
            throw new Refusal(reason, "cannot be read (" + what + ", " + e.reason() + "): " + e.getMessage());
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
