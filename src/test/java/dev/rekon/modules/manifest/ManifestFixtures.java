package dev.rekon.modules.manifest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.ocm.Normalisation;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;

/**
 * Manifests, tars and ModuleTemplates for the manifest tests: a kpack-like module's YAML, the OCM descriptor with
 * its raw-manifest resource pointing at a blob (localBlob) or an artifact, signed with {@link TestSigning}'s key.
 */
public final class ManifestFixtures {

    public static final String MODULE_YAML = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: kpack
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata:
              name: controller
              namespace: kpack
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: config
              namespace: kpack
            data:
              level: info
            """;

    private ManifestFixtures() {
    }

    public static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A tar (written by commons-compress, POSIX long names) of the files, in the map's order. */
    public static byte[] tar(Map<String, String> files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, String> f : files.entrySet()) {
                byte[] content = bytes(f.getValue());
                TarArchiveEntry e = new TarArchiveEntry(f.getKey());
                e.setSize(content.length);
                e.setModTime(0); // the same files give the same tar, and digest
                e.setUserName("");
                e.setGroupName("");
                tar.putArchiveEntry(e);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    public static byte[] gzip(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    public static String digest(byte[] blob) {
        return "sha256:" + ManifestReader.sha256(blob);
    }

    /** The kpack descriptor stored at {@code baseUrl}, its raw-manifest a localBlob of {@code blob}, unsigned. */
    public static ObjectNode localBlobDescriptor(String version, String baseUrl, byte[] blob) {
        ObjectNode d = TestSigning.kpackDescriptor(version);
        ((ObjectNode) d.path("component").path("repositoryContexts").get(0)).put("baseUrl", baseUrl);
        ObjectNode raw = rawManifest(d);
        raw.putObject("access").put("type", "localBlob").put("localReference", digest(blob))
                .put("mediaType", "application/x-tar");
        raw.putObject("digest").put("hashAlgorithm", "SHA-256").put("normalisationAlgorithm", "genericBlobDigest/v1")
                .put("value", ManifestReader.sha256(blob));
        return d;
    }

    /** The kpack descriptor whose raw-manifest is an ociArtifact, its signed digest the artifact's manifest digest. */
    public static ObjectNode artifactDescriptor(String version, String imageReference, String manifestDigest) {
        ObjectNode d = TestSigning.kpackDescriptor(version);
        ObjectNode raw = rawManifest(d);
        raw.put("type", "ociArtifact");
        raw.putObject("access").put("type", "ociArtifact").put("imageReference", imageReference);
        raw.putObject("digest").put("hashAlgorithm", "SHA-256").put("normalisationAlgorithm", "ociArtifactDigest/v1")
                .put("value", manifestDigest.replaceFirst("^sha256:", ""));
        return d;
    }

    public static ObjectNode rawManifest(ObjectNode descriptor) {
        for (var r : descriptor.path("component").path("resources")) {
            if (ComponentDescriptor.RAW_MANIFEST.equals(r.path("name").asText())) {
                return (ObjectNode) r;
            }
        }
        throw new IllegalArgumentException("descriptor has no raw-manifest");
    }

    public static ObjectNode signed(ObjectNode descriptor) {
        return TestSigning.sign(descriptor, TestSigning.TRUSTED.getPrivate(), SignatureVerifier.PKCS1, Normalisation.V3);
    }

    /** A ModuleTemplate of the kpack module in namespace {@code kcp} with the descriptor (may be null). */
    public static ObjectNode template(String name, String version, ObjectNode descriptor) {
        ObjectNode t = TestSigning.JSON.createObjectNode();
        t.put("apiVersion", "operator.kyma-project.io/v1beta2").put("kind", "ModuleTemplate");
        t.putObject("metadata").put("name", name).put("namespace", "kcp");
        ObjectNode spec = t.putObject("spec").put("moduleName", "kpack").put("version", version);
        spec.set("descriptor", descriptor == null ? TestSigning.JSON.createObjectNode() : descriptor);
        return t;
    }

    public static ObjectNode withLink(ObjectNode template, String link) {
        ((ObjectNode) template.get("spec")).putArray("resources").addObject().put("name", "rawManifest")
                .put("link", link);
        return template;
    }
}
