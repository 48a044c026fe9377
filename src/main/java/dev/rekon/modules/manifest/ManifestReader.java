package dev.rekon.modules.manifest;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.modules.manifest.ModuleManifest.Provenance;
import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.SignatureCheck;
import dev.rekon.registry.RegistryImage;

/**
 * Reads a ModuleTemplate's manifest: where it is ({@link ManifestOrigin}), whether signatures allow reading it
 * ({@link ManifestTrust}, checked before any fetch), the bytes (through {@link ManifestFetcher}), their digest
 * against the declared one, then the objects ({@link ManifestContent}) and the default CR ({@code spec.data}).
 * Anything short of a whole, trusted manifest is a {@link RefusedException} naming the template.
 */
public final class ManifestReader implements ManifestSource {

    private final ManifestFetcher fetcher;
    private final SignatureVerifier verifier;
    private final boolean requireSignature;

    public ManifestReader(ManifestFetcher fetcher, SignatureVerifier verifier, boolean requireSignature) {
        this.fetcher = fetcher;
        this.verifier = verifier;
        this.requireSignature = requireSignature;
    }

    /** What was read and the digest a signature must record for it. */
    private record Read(byte[] bytes, String coveredDigest, String source) {
    }

    private record Trusted(Read read, Provenance provenance) {
    }

    @Override
    public ModuleManifest fetch(ModuleTemplateView template) {
        ObjectRef ref = template.ref();
        String module = template.module();
        String version = template.version();
        if (module == null || version == null) {
            throw refused(ref, "names no module and version: set spec.moduleName and spec.version");
        }
        ComponentDescriptor cd = descriptor(template, ref);
        ManifestOrigin origin = ManifestOrigin.of(template, cd);
        if (origin instanceof ManifestOrigin.Unreadable u) {
            throw refused(ref, u.message());
        }
        Trusted trusted = trustedRead(ref, cd, origin);
        List<ObjectNode> objects;
        try {
            objects = ManifestContent.objects(trusted.read().bytes());
        } catch (ManifestContent.Invalid e) {
            throw refused(ref, "has a manifest (" + trusted.read().source() + ") that " + e.getMessage());
        }
        return new ModuleManifest(module, version, objects, defaultCr(template, ref),
                "sha256:" + sha256(trusted.read().bytes()), trusted.provenance(),
                trusted.read().source() + (cd == null ? "" : " of component " + cd.name() + ":" + cd.version()));
    }

    @Override
    public java.util.Optional<String> pinned(ModuleTemplateView template) {
        ComponentDescriptor cd;
        try {
            cd = descriptor(template, template.ref());
        } catch (RefusedException e) {
            // A descriptor that cannot be read pins no digest: the page says "not read yet", and a read refuses it.
            return java.util.Optional.empty();
        }
        ManifestOrigin origin = ManifestOrigin.of(template, cd);
        if (origin instanceof ManifestOrigin.LocalBlob b) {
            return java.util.Optional.of(b.digest());
        }
        if (origin instanceof ManifestOrigin.OciArtifact a && a.signed() != null
                && "SHA-256".equals(a.signed().hashAlgorithm())) {
            return java.util.Optional.of(ComponentDescriptor.pinned(a.imageReference(), a.signed().value()));
        }
        return java.util.Optional.empty();
    }

    /** Checks what signatures allow before reading, reads, and checks that the signature covers what was read. */
    private Trusted trustedRead(ObjectRef ref, ComponentDescriptor cd, ManifestOrigin origin) {
        SignatureCheck check = origin instanceof ManifestOrigin.Link || cd == null ? null : verifier.verify(cd);
        String early = ManifestTrust.beforeFetch(origin, check, requireSignature);
        if (early != null) {
            throw refused(ref, early);
        }
        Read read = read(ref, origin);
        ManifestTrust.Verdict verdict = ManifestTrust.afterFetch(origin, check, read.coveredDigest(), requireSignature);
        if (verdict.refusal() != null) {
            throw refused(ref, verdict.refusal());
        }
        return new Trusted(read, verdict.provenance());
    }

    private Read read(ObjectRef ref, ManifestOrigin origin) {
        if (origin instanceof ManifestOrigin.LocalBlob b) {
            byte[] bytes = checked(ref, fetcher.blob(ref, b.repository(), b.digest()), b.digest(), "localBlob");
            return new Read(bytes, b.digest().substring("sha256:".length()), "localBlob " + b.digest());
        }
        if (origin instanceof ManifestOrigin.OciArtifact a) {
            String pinned = a.signed() == null || !"SHA-256".equals(a.signed().hashAlgorithm()) ? a.imageReference()
                    : ComponentDescriptor.pinned(a.imageReference(), a.signed().value());
            RegistryImage image = fetcher.artifact(ref, pinned);
            if (image.layers().size() != 1) {
                throw refused(ref, "has a raw-manifest artifact " + pinned + " with " + image.layers().size()
                        + " layers; push the manifest as the artifact's only layer");
            }
            String layer = image.layers().get(0).digest();
            byte[] bytes = checked(ref, fetcher.blob(ref, image.reference().repositoryKey(), layer), layer,
                    "artifact layer");
            return new Read(bytes, image.digest().replaceFirst("^sha256:", ""), "ociArtifact " + pinned);
        }
        ManifestOrigin.Link l = (ManifestOrigin.Link) origin;
        byte[] bytes = fetcher.link(ref, l.uri());
        return new Read(bytes, sha256(bytes), "link " + l.uri());
    }

    private static byte[] checked(ObjectRef ref, byte[] bytes, String declared, String what) {
        String actual = "sha256:" + sha256(bytes);
        if (!actual.equals(declared)) {
            throw refused(ref, "has a raw-manifest " + what + " declared as " + declared + " whose content digests to "
                    + actual + ": it was tampered with or corrupted; push the manifest again");
        }
        return bytes;
    }

    private static ComponentDescriptor descriptor(ModuleTemplateView template, ObjectRef ref) {
        JsonNode d = template.descriptor();
        if (!d.path("component").isObject()) {
            return null; // a community template may carry an empty descriptor and a link
        }
        try {
            return ComponentDescriptor.parse(d, KymaModules.TEMPLATE + " " + ref.namespace() + "/" + ref.name());
        } catch (InvalidEventException e) {
            // A descriptor that does not parse is the template's refusal: named by the template, with the fix there.
            throw refused(ref, e.getMessage());
        }
    }

    private static ObjectNode defaultCr(ModuleTemplateView template, ObjectRef ref) {
        JsonNode data = template.data();
        if (data == null) {
            return null;
        }
        if (!(data instanceof ObjectNode o) || !o.path("apiVersion").isTextual() || !o.path("kind").isTextual()
                || o.path("metadata").path("name").asText("").isBlank()) {
            throw refused(ref, "has a default custom resource (spec.data) without apiVersion, kind and"
                    + " metadata.name; give it all three, or remove spec.data");
        }
        return o.deepCopy();
    }

    static RefusedException refused(ObjectRef ref, String message) {
        return new RefusedException(0, ref, KymaModules.TEMPLATE + " " + (ref.namespace() == null ? ""
                : ref.namespace() + "/") + ref.name() + " " + message, null);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
