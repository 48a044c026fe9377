package dev.rekon.modules.manifest;

import static dev.rekon.modules.manifest.ManifestFixtures.bytes;
import static dev.rekon.modules.manifest.ManifestFixtures.digest;
import static dev.rekon.modules.manifest.ManifestFixtures.signed;
import static dev.rekon.modules.manifest.ManifestFixtures.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.modules.manifest.ModuleManifest.Provenance;
import dev.rekon.modules.ocm.PublicKeys.NamedKey;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryImage;

/** The reading rules against an in-memory {@link ManifestFetcher}: what is fetched, verified and refused. */
class ManifestReaderTest {

    static final String REPO = "registry.example/component-descriptors/kyma-project.io/module/kpack";
    static final SignatureVerifier VERIFIER = new SignatureVerifier(
            List.of(new NamedKey("trusted.pem", TestSigning.TRUSTED.getPublic())));
    static final byte[] BLOB = bytes(ManifestFixtures.MODULE_YAML);

    /** Serves what the test put in, and records every request. */
    static final class Fetcher implements ManifestFetcher {
        final Map<String, byte[]> blobs = new HashMap<>();
        final Map<String, RegistryImage> artifacts = new HashMap<>();
        final Map<URI, byte[]> links = new HashMap<>();
        final List<String> requests = new ArrayList<>();

        @Override
        public byte[] blob(ObjectRef template, String repository, String digest) {
            requests.add("blob " + repository + "@" + digest);
            return blobs.get(repository + "@" + digest);
        }

        @Override
        public RegistryImage artifact(ObjectRef template, String imageReference) {
            requests.add("artifact " + imageReference);
            return artifacts.get(imageReference);
        }

        @Override
        public byte[] link(ObjectRef template, URI uri) {
            requests.add("link " + uri);
            return links.get(uri);
        }
    }

    final Fetcher fetcher = new Fetcher();

    ModuleManifest read(ObjectNode template, boolean required) {
        return new ManifestReader(fetcher, VERIFIER, required).fetch(ModuleTemplateView.of(template));
    }

    String refusal(ObjectNode template, boolean required) {
        RefusedException e = assertThrows(RefusedException.class, () -> read(template, required));
        assertEquals(new ObjectRef("operator.kyma-project.io/v1beta2", "ModuleTemplate", "kcp", "kpack-0.4.1"), e.ref());
        assertTrue(e.getMessage().startsWith("ModuleTemplate kcp/kpack-0.4.1 "), e.getMessage());
        return e.getMessage();
    }

    ObjectNode localBlobTemplate(boolean sign) {
        fetcher.blobs.put(REPO + "@" + digest(BLOB), BLOB);
        ObjectNode d = ManifestFixtures.localBlobDescriptor("0.4.1", "registry.example", BLOB);
        return template("kpack-0.4.1", "0.4.1", sign ? signed(d) : d);
    }

    @Test
    void aSignedLocalBlobIsReadVerifiedAndParsed() {
        ModuleManifest m = read(localBlobTemplate(true), true);
        assertEquals(Provenance.SIGNED, m.provenance());
        assertEquals(List.of("blob " + REPO + "@" + digest(BLOB)), fetcher.requests);
        assertEquals(digest(BLOB), m.digest());
        assertEquals("kpack", m.module());
        assertEquals("0.4.1", m.version());
        assertEquals(3, m.objects().size());
        assertNull(m.defaultCr());
        assertTrue(m.source().contains("localBlob " + digest(BLOB) + " of component kyma-project.io/module/kpack:0.4.1"),
                m.source());
    }

    @Test
    void versionedAccessTypesAreReadToo() {
        ObjectNode t = localBlobTemplate(false);
        ManifestFixtures.rawManifest((ObjectNode) t.path("spec").path("descriptor")).with("access")
                .put("type", "localBlob/v1");
        assertEquals(3, read(t, false).objects().size());
    }

    @Test
    void aSignatureThatVerifiesCountsEvenWhenNotRequired() {
        assertEquals(Provenance.SIGNED, read(localBlobTemplate(true), false).provenance());
    }

    @Test
    void anUnsignedDescriptorIsReadAsUnsignedWhenSignaturesAreNotRequired() {
        assertEquals(Provenance.UNSIGNED, read(localBlobTemplate(false), false).provenance());
    }

    @Test
    void anUnsignedDescriptorIsRefusedBeforeAnyFetchWhenSignaturesAreRequired() {
        String m = refusal(localBlobTemplate(false), true);
        assertTrue(m.contains("is not signed as required (SignatureMissing)"), m);
        assertEquals(List.of(), fetcher.requests);
    }

    @Test
    void aDescriptorChangedAfterSigningIsRefused() {
        ObjectNode t = localBlobTemplate(true);
        ManifestFixtures.rawManifest((ObjectNode) t.path("spec").path("descriptor")).with("digest").put("value",
                "0".repeat(64));
        String m = refusal(t, true);
        assertTrue(m.contains("(DigestMismatch)"), m);
        assertEquals(List.of(), fetcher.requests);
    }

    @Test
    void aBlobWhoseContentIsNotItsDigestIsRefusedAsTampered() {
        ObjectNode t = localBlobTemplate(false);
        fetcher.blobs.put(REPO + "@" + digest(BLOB), bytes(ManifestFixtures.MODULE_YAML + "# changed\n"));
        String m = refusal(t, false);
        assertTrue(m.contains("declared as " + digest(BLOB) + " whose content digests to sha256:"), m);
        assertTrue(m.contains("tampered with"), m);
    }

    @Test
    void anAccessPointedAtAnotherBlobAfterSigningIsRefused() {
        ObjectNode t = localBlobTemplate(true);
        byte[] other = bytes("apiVersion: v1\nkind: Namespace\nmetadata: {name: evil}\n");
        fetcher.blobs.put(REPO + "@" + digest(other), other);
        // The access is not covered by OCM signatures: the signature still verifies, the recorded digest does not match.
        ManifestFixtures.rawManifest((ObjectNode) t.path("spec").path("descriptor")).with("access")
                .put("localReference", digest(other));
        String m = refusal(t, true);
        assertTrue(m.contains("recording raw-manifest digest " + ManifestReader.sha256(BLOB) + " but what was read"
                + " digests to " + ManifestReader.sha256(other)), m);
        String unrequired = refusal(t, false);
        assertTrue(unrequired.contains("digests to " + ManifestReader.sha256(other)), unrequired);
    }

    @Test
    void anUnsignedComponentWhoseBlobIsNotTheRecordedDigestIsRefusedWhenSignaturesAreNotRequired() {
        ObjectNode t = localBlobTemplate(false);
        byte[] other = bytes("apiVersion: v1\nkind: Namespace\nmetadata: {name: evil}\n");
        fetcher.blobs.put(REPO + "@" + digest(other), other);
        ManifestFixtures.rawManifest((ObjectNode) t.path("spec").path("descriptor")).with("access")
                .put("localReference", digest(other));
        String m = refusal(t, false);
        assertTrue(m.contains("raw-manifest digest " + ManifestReader.sha256(BLOB) + " but what was read digests to "
                + ManifestReader.sha256(other)), m);
    }

    @Test
    void aSignedDescriptorWithoutARawManifestDigestIsRefusedWhenRequired() {
        ObjectNode d = ManifestFixtures.localBlobDescriptor("0.4.1", "registry.example", BLOB);
        ManifestFixtures.rawManifest(d).remove("digest");
        fetcher.blobs.put(REPO + "@" + digest(BLOB), BLOB);
        String m = refusal(template("kpack-0.4.1", "0.4.1", signed(d)), true);
        assertTrue(m.contains("records no SHA-256 digest for its raw-manifest"), m);
    }

    @Test
    void aLinkIsReadAsLinkOnlyWhenSignaturesAreNotRequired() {
        URI uri = URI.create("https://example.org/kpack/0.4.1/manifest.yaml");
        fetcher.links.put(uri, BLOB);
        ObjectNode t = ManifestFixtures.withLink(template("kpack-0.4.1", "0.4.1", null), uri.toString());
        ModuleManifest m = read(t, false);
        assertEquals(Provenance.LINK, m.provenance());
        assertEquals("link " + uri, m.source());
        assertEquals(digest(BLOB), m.digest());
        fetcher.requests.clear();
        assertTrue(refusal(t, true).contains("which no signature covers"));
        assertEquals(List.of(), fetcher.requests);
    }

    @Test
    void aSignedArtifactIsReadPinnedToItsSignedDigest() {
        String manifestDigest = "sha256:" + "a".repeat(64);
        String pinned = "registry.example/kpack/raw-manifest:0.4.1@" + manifestDigest;
        fetcher.artifacts.put(pinned, new RegistryImage(ImageReference.parse(pinned), manifestDigest,
                "application/vnd.oci.image.manifest.v1+json",
                List.of(new RegistryImage.Layer(digest(BLOB), BLOB.length, "application/x-yaml")), TestSigning.JSON.createObjectNode()));
        fetcher.blobs.put("registry.example/kpack/raw-manifest@" + digest(BLOB), BLOB);
        ObjectNode d = ManifestFixtures.artifactDescriptor("0.4.1", "registry.example/kpack/raw-manifest:0.4.1",
                manifestDigest);
        ModuleManifest m = read(template("kpack-0.4.1", "0.4.1", signed(d)), true);
        assertEquals(Provenance.SIGNED, m.provenance());
        assertEquals(List.of("artifact " + pinned, "blob registry.example/kpack/raw-manifest@" + digest(BLOB)),
                fetcher.requests);
    }

    @Test
    void anArtifactOfSeveralLayersIsRefused() {
        String ref = "registry.example/kpack/raw-manifest:0.4.1";
        RegistryImage.Layer layer = new RegistryImage.Layer(digest(BLOB), BLOB.length, "application/x-yaml");
        fetcher.artifacts.put(ref, new RegistryImage(ImageReference.parse(ref), "sha256:" + "b".repeat(64),
                "application/vnd.oci.image.manifest.v1+json", List.of(layer, layer), TestSigning.JSON.createObjectNode()));
        ObjectNode d = ManifestFixtures.artifactDescriptor("0.4.1", ref, "x");
        ManifestFixtures.rawManifest(d).remove("digest");
        assertTrue(refusal(template("kpack-0.4.1", "0.4.1", d), false).contains("with 2 layers"));
    }

    @Test
    void aTemplateWithoutManifestIsRefusedSayingWhereToPutIt() {
        ObjectNode d = TestSigning.kpackDescriptor("0.4.1");
        ((com.fasterxml.jackson.databind.node.ArrayNode) d.path("component").path("resources")).remove(2);
        assertTrue(refusal(template("kpack-0.4.1", "0.4.1", d), false).contains("has no manifest: add a resource"
                + " named 'raw-manifest'"));
    }

    @Test
    void aManifestThatIsNotObjectsIsRefusedNamingTheDocument() {
        byte[] bad = bytes("apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n");
        fetcher.blobs.put(REPO + "@" + digest(bad), bad);
        ObjectNode t = template("kpack-0.4.1", "0.4.1", ManifestFixtures.localBlobDescriptor("0.4.1",
                "registry.example", bad));
        assertTrue(refusal(t, false).contains("has a manifest (localBlob " + digest(bad) + ") that has document 1"
                + " (kind ConfigMap) without [metadata.name]"));
    }

    @Test
    void specDataIsTheDefaultCustomResource() {
        ObjectNode t = localBlobTemplate(true);
        ObjectNode data = ((ObjectNode) t.get("spec")).putObject("data");
        data.put("apiVersion", "operator.kyma-project.io/v1alpha1").put("kind", "Kpack");
        data.putObject("metadata").put("name", "default").put("namespace", "kpack");
        assertEquals(data, read(t, true).defaultCr());
        data.remove("kind");
        assertTrue(refusal(t, true).contains("has a default custom resource (spec.data) without apiVersion, kind"));
    }

    @Test
    void aTemplateWithoutModuleNameOrALinkThatIsNoHttpUrlIsRefused() {
        ObjectNode nameless = localBlobTemplate(true);
        ((ObjectNode) nameless.get("spec")).remove("moduleName");
        assertTrue(refusal(nameless, false).contains("names no module and version"));
        ObjectNode ftp = ManifestFixtures.withLink(template("kpack-0.4.1", "0.4.1", null), "ftp://example.org/m.yaml");
        assertTrue(refusal(ftp, false).contains("link 'ftp://example.org/m.yaml', which is not an http(s) URL"));
        assertEquals(List.of(), fetcher.requests);
    }
}
