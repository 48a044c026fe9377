package dev.rekon.modules.ocm;

import static dev.rekon.modules.ocm.TestSigning.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Checked against the worked examples of the OCM specification (normalisation and signing chapters). */
class NormalisationTest {

    /** The specification's "simple component version" in the v2 serialisation. */
    static final String SIMPLE_APP = """
            {"meta": {"schemaVersion": "v2"},
             "component": {"name": "ocm.software/simpleapp", "version": "0.1.0", "provider": "ocm.software",
              "repositoryContexts": [],
              "resources": [
               {"access": {"localReference": "sha256:dea5de3e6f20fc58bfa8c2a25043f628c730960d46100b83540a30ed0a4e7910",
                 "mediaType": "application/vnd.oci.image.manifest.v1+tar+gzip",
                 "referenceName": "ocm.software/simpleapp/echoserver:0.1.0", "type": "localBlob"},
                "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "ociArtifactDigest/v1",
                 "value": "5e28862f7ad5b71f3f5c5dc7a4ccc8c3d3cb87f5e5774458d895d831d3765548"},
                "name": "chart", "relation": "local", "type": "helmChart", "version": "0.1.0"},
               {"access": {"imageReference": "gcr.io/google_containers/echoserver:1.10", "type": "OCIImage"},
                "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "ociArtifactDigest/v1",
                 "value": "cb5c1bddd1b5665e1867a7fa1b5fa843a47ee433bbb75d4293888b71def53229"},
                "name": "image", "relation": "external", "type": "ociImage", "version": "1.0"}],
              "sources": [
               {"access": {"commit": "e39625d6e919d33267da4778a1842670ce2bbf77",
                 "repoUrl": "github.com/open-component-model/ocm", "type": "github"},
                "name": "source", "type": "filesytem", "version": "0.1.0"}]}}
            """;

    @Test
    void v2MatchesTheSpecificationsDigest() throws Exception {
        byte[] normalised = Normalisation.normalise(JSON.readTree(SIMPLE_APP), Normalisation.V2);
        assertEquals("01c211f5c9cfd7c40e5b84d66a2fb7d19cb0d65174b06c57b403c2ad9fdf8ed2",
                HexFormat.of().formatHex(SignatureVerifier.sha256(normalised)));
    }

    @Test
    void v3IsTheSpecificationsJcsForm() throws Exception {
        JsonNode descriptor = JSON.readTree("""
                {"meta": {"schemaVersion": "v2"},
                 "component": {"name": "ocm.software/example", "version": "1.0.0", "provider": "acme.org",
                  "repositoryContexts": [{"baseUrl": "ghcr.io", "type": "OCIRegistry"}],
                  "resources": [{"name": "my-binary", "type": "executable", "version": "1.0.0", "relation": "local",
                    "access": {"type": "localBlob", "localReference": "sha256:abc123...",
                      "mediaType": "application/octet-stream"},
                    "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "genericBlobDigest/v1",
                      "value": "abc123..."},
                    "labels": [{"name": "downloadName", "value": "my-binary"},
                      {"name": "config-hash", "value": "def456...", "signing": true}]}],
                  "sources": [], "componentReferences": []},
                 "signatures": []}
                """);
        assertEquals("{\"component\":{\"componentReferences\":[],\"name\":\"ocm.software/example\","
                + "\"provider\":{\"name\":\"acme.org\"},\"resources\":[{\"digest\":{\"hashAlgorithm\":\"SHA-256\","
                + "\"normalisationAlgorithm\":\"genericBlobDigest/v1\",\"value\":\"abc123...\"},\"labels\":[{\"name\":"
                + "\"config-hash\",\"signing\":true,\"value\":\"def456...\"}],\"name\":\"my-binary\",\"relation\":"
                + "\"local\",\"type\":\"executable\",\"version\":\"1.0.0\"}],\"sources\":[],\"version\":\"1.0.0\"}}",
                new String(Normalisation.normalise(descriptor, Normalisation.V3), StandardCharsets.UTF_8));
    }

    /**
     * jsonNormalisation/v4alpha1 as OCM's implementation defines it (and its v3 gives the same bytes): the v2
     * serialisation less meta, signatures, nested digests, repository contexts, accesses, srcRefs and unsigned
     * labels (of labels only name, version, value and signing), with creationTime and componentReferences kept, the
     * references' labels unfiltered, and a resource with access type none without its digest.
     */
    @Test
    void v4alpha1IsTheV2SerialisationInJcsFormLessWhatNoSignatureCovers() throws Exception {
        JsonNode descriptor = JSON.readTree("""
                {"meta": {"schemaVersion": "v2"},
                 "component": {"name": "example.org/module/widget", "version": "1.2.0",
                  "creationTime": "2026-01-02T03:04:05Z", "provider": "example.org",
                  "labels": [{"name": "team", "value": "widgets"},
                    {"name": "tier", "value": {"level": 1}, "signing": true, "mergeAlgorithm": "default"}],
                  "repositoryContexts": [{"baseUrl": "registry.example", "type": "OCIRegistry"}],
                  "resources": [
                   {"name": "raw-manifest", "version": "1.2.0", "type": "yaml", "relation": "local", "extraIdentity": {},
                    "access": {"type": "localBlob", "localReference": "sha256:aa"},
                    "srcRefs": [{"identitySelector": {"name": "src"}}],
                    "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "genericBlobDigest/v1", "value": "aa"},
                    "labels": [{"name": "unsigned", "value": "x"}]},
                   {"name": "docs", "version": "1.2.0", "type": "blob", "relation": "external", "access": {"type": "none"},
                    "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "genericBlobDigest/v1", "value": "bb"}}],
                  "sources": [{"name": "src", "version": "1.2.0", "type": "git",
                    "access": {"type": "gitHub", "repoUrl": "github.com/x/y"},
                    "labels": [{"name": "commit", "value": "abc", "signing": true}]}],
                  "componentReferences": [{"name": "base", "componentName": "example.org/base", "version": "0.1.0",
                    "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "jsonNormalisation/v3", "value": "cc"},
                    "labels": [{"name": "note", "value": "kept"}]}]},
                 "signatures": [{"name": "earlier"}], "nestedDigests": []}
                """);
        String expected = "{\"component\":{\"componentReferences\":[{\"componentName\":\"example.org/base\","
                + "\"digest\":{\"hashAlgorithm\":\"SHA-256\",\"normalisationAlgorithm\":\"jsonNormalisation/v3\","
                + "\"value\":\"cc\"},\"labels\":[{\"name\":\"note\",\"value\":\"kept\"}],\"name\":\"base\","
                + "\"version\":\"0.1.0\"}],\"creationTime\":\"2026-01-02T03:04:05Z\",\"labels\":[{\"name\":\"tier\","
                + "\"signing\":true,\"value\":{\"level\":1}}],\"name\":\"example.org/module/widget\","
                + "\"provider\":{\"name\":\"example.org\"},\"resources\":[{\"digest\":{\"hashAlgorithm\":\"SHA-256\","
                + "\"normalisationAlgorithm\":\"genericBlobDigest/v1\",\"value\":\"aa\"},\"name\":\"raw-manifest\","
                + "\"relation\":\"local\",\"type\":\"yaml\",\"version\":\"1.2.0\"},{\"name\":\"docs\","
                + "\"relation\":\"external\",\"type\":\"blob\",\"version\":\"1.2.0\"}],\"sources\":[{\"labels\":"
                + "[{\"name\":\"commit\",\"signing\":true,\"value\":\"abc\"}],\"name\":\"src\",\"type\":\"git\","
                + "\"version\":\"1.2.0\"}],\"version\":\"1.2.0\"}}";
        assertEquals(expected, new String(Normalisation.normalise(descriptor, Normalisation.V4ALPHA1),
                StandardCharsets.UTF_8));
        assertEquals(expected, new String(Normalisation.normalise(descriptor, Normalisation.V3),
                StandardCharsets.UTF_8), "OCM's v3 gives the same bytes");
        ObjectNode later = descriptor.deepCopy();
        ((ObjectNode) later.get("component")).put("creationTime", "2026-01-02T03:04:06Z");
        assertNotEquals(expected, new String(Normalisation.normalise(later, Normalisation.V4ALPHA1),
                StandardCharsets.UTF_8), "the creation time is signed");
    }

    @Test
    void entryListIsTheSpecificationsGenericForm() throws Exception {
        JsonNode resources = JSON.readTree("""
                {"resources": [{"access": {"localReference": "blob", "mediaType": "text/plain", "referenceName": "ref",
                  "type": "localBlob"}, "extraIdentity": {"additional": "value", "other": "othervalue"},
                  "name": "elem1", "relation": "local", "type": "elemtype", "version": 1, "gone": null}]}
                """);
        assertEquals("[{\"resources\":[[{\"access\":[{\"localReference\":\"blob\"},{\"mediaType\":\"text/plain\"},"
                + "{\"referenceName\":\"ref\"},{\"type\":\"localBlob\"}]},{\"extraIdentity\":[{\"additional\":\"value\"},"
                + "{\"other\":\"othervalue\"}]},{\"name\":\"elem1\"},{\"relation\":\"local\"},{\"type\":\"elemtype\"},"
                + "{\"version\":1}]]}]", CanonicalJson.entryList(resources));
    }

    @Test
    void v1KeepsMetaAndDropsTransportDetailsAndUnsignedLabels() {
        String v1 = new String(Normalisation.normalise(TestSigning.kpackDescriptor("0.4.3"), Normalisation.V1),
                StandardCharsets.UTF_8);
        assertEquals(true, v1.contains("{\"meta\":[{\"schemaVersion\":\"v2\"}]}"));
        assertEquals(true, v1.contains("{\"labels\":[[{\"name\":\"module-owner\"},{\"signing\":true}"));
        assertEquals(false, v1.contains("imageReference") || v1.contains("repositoryContexts")
                || v1.contains("security-scan"));
    }

    @Test
    void accessChangesDoNotChangeTheDigestButContentDoes() {
        ObjectNode original = TestSigning.kpackDescriptor("0.4.3");
        ObjectNode moved = original.deepCopy();
        ((ObjectNode) moved.at("/component/resources/0/access")).put("imageReference", "mirror.example/c:0.4.3");
        ObjectNode changed = original.deepCopy();
        ((ObjectNode) changed.at("/component/resources/0")).put("version", "0.4.4");
        for (String algorithm : Normalisation.SUPPORTED) {
            assertEquals(hex(original, algorithm), hex(moved, algorithm), algorithm);
            assertNotEquals(hex(original, algorithm), hex(changed, algorithm), algorithm);
        }
    }

    @Test
    void namesTheSupportedAlgorithmsWhenAskedForAnother() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Normalisation.normalise(TestSigning.kpackDescriptor("1.0.0"), "jsonNormalisation/v9"));
        assertEquals("normalisation algorithm 'jsonNormalisation/v9' is not supported; use one of [jsonNormalisation/v1,"
                + " jsonNormalisation/v2, jsonNormalisation/v3, jsonNormalisation/v4alpha1]", e.getMessage());
    }

    private static String hex(JsonNode d, String algorithm) {
        return HexFormat.of().formatHex(SignatureVerifier.sha256(Normalisation.normalise(d, algorithm)));
    }
}
