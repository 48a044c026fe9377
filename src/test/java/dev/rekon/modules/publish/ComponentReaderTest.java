package dev.rekon.modules.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.manifest.ManifestFixtures;
import dev.rekon.modules.manifest.OcmRegistry;
import dev.rekon.modules.ocm.PublicKeys;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.modules.publish.source.ComponentRead;
import dev.rekon.modules.publish.source.ComponentReader;
import dev.rekon.modules.publish.source.ComponentVersion;
import dev.rekon.modules.release.SignatureCheck;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryClient;
import dev.rekon.registry.RegistryImage;
import dev.rekon.testing.LocalRegistry;

/**
 * Reading component versions from a real registry in OCM's layout: a whole one, and each kind of bad input
 * refused with its reason (a descriptor that does not parse, no descriptor layer, a blob the manifest does not
 * list, a blob over the limit, a recorded digest that is not the blob's, a tag that is not there).
 */
class ComponentReaderTest {

    static LocalRegistry registry;
    static OcmRegistry push;
    static final SignatureVerifier VERIFIER = new SignatureVerifier(List.of(new PublicKeys.NamedKey("trusted",
            TestSigning.TRUSTED.getPublic())));

    @BeforeAll
    static void start() {
        registry = LocalRegistry.start(LocalRegistry.Options.plain("component-reader"));
        push = new OcmRegistry(registry.hostPort(), null);
    }

    @AfterAll
    static void stop() {
        registry.stop();
    }

    static ComponentRead read(String component, String version, long limit) {
        RegistryClient client = new RegistryClient(Set.of(), Duration.ofSeconds(10));
        ComponentReader.OciReads reads = new ComponentReader.OciReads() {
            @Override
            public RegistryImage image(ImageReference reference) {
                return client.readImage(reference, java.util.Optional.empty());
            }

            @Override
            public byte[] blob(ImageReference reference, String digest) {
                return client.readBlob(reference, java.util.Optional.empty(), digest);
            }
        };
        return new ComponentReader(reads, VERIFIER, limit).read(registry.hostPort() + "/component-descriptors/"
                + component, version);
    }

    static ObjectNode descriptor(String component, String version, byte[] tar) {
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, registry.hostPort(), tar);
        ObjectNode c = (ObjectNode) d.get("component");
        c.put("name", component);
        var resources = c.withArray("resources");
        for (int i = resources.size() - 1; i >= 0; i--) {
            if (!"raw-manifest".equals(resources.get(i).path("name").asText())) {
                resources.remove(i);
            }
        }
        return d;
    }

    static ObjectNode addBlob(ObjectNode d, String name, byte[] blob) {
        ObjectNode r = ((ObjectNode) d.get("component")).withArray("resources").addObject().put("name", name)
                .put("type", "yaml").put("relation", "local").put("version", d.path("component").path("version").asText());
        r.putObject("access").put("type", "localBlob").put("localReference", ManifestFixtures.digest(blob))
                .put("mediaType", "application/x-yaml");
        return d;
    }

    static final byte[] TAR = ManifestFixtures.tar(Map.of("manifest.yaml", ManifestFixtures.MODULE_YAML));
    static final byte[] CR = ManifestFixtures.bytes("apiVersion: operator.kpack.io/v1alpha1\nkind: Kpack\n"
            + "metadata: {name: default, namespace: kpack}\n");

    static String reason(ComponentRead read) {
        return assertInstanceOf(ComponentRead.Refused.class, read).reason();
    }

    @Test
    void aWholeSignedComponentVersion() throws Exception {
        ObjectNode d = ManifestFixtures.signed(addBlob(descriptor("e2e.rekon.dev/reader/whole", "1.0.0", TAR),
                "default-cr", CR));
        String digest = push.pushComponent(d, TAR, CR);
        ComponentVersion v = assertInstanceOf(ComponentRead.Found.class, read("e2e.rekon.dev/reader/whole", "1.0.0",
                1 << 20)).version();
        assertEquals(digest, v.digest());
        assertEquals(3, v.objects().size(), "the raw manifest's objects");
        assertEquals("Kpack", v.defaultCr().path("kind").asText());
        assertEquals(SignatureCheck.Status.VERIFIED, v.signature().status(), v.signature().message());
        assertTrue(v.manifestCovered());
        assertEquals("e2e.rekon.dev/reader/whole", v.component().name());
    }

    @Test
    void aDescriptorThatDoesNotParse() throws Exception {
        String repo = "component-descriptors/e2e.rekon.dev/reader/garbage";
        byte[] layer = ManifestFixtures.tar(Map.of("component-descriptor.yaml", "component: [not closed\n"));
        pushRaw(repo, "1.0.0", layer, true);
        ComponentRead r = read("e2e.rekon.dev/reader/garbage", "1.0.0", 1 << 20);
        assertEquals("DescriptorInvalid", reason(r), r.toString());

        pushRaw(repo, "1.0.1", layer, false);
        r = read("e2e.rekon.dev/reader/garbage", "1.0.1", 1 << 20);
        assertEquals("DescriptorInvalid", reason(r));
        assertTrue(((ComponentRead.Refused) r).message().contains("componentDescriptorLayer"), r.toString());
    }

    @Test
    void aBlobTheManifestDoesNotList() throws Exception {
        byte[] unpushed = ManifestFixtures.bytes("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: never-pushed}\n");
        push.pushComponent(addBlob(descriptor("e2e.rekon.dev/reader/missing", "1.0.0", TAR), "default-cr", unpushed),
                TAR);
        assertEquals("BlobMissing", reason(read("e2e.rekon.dev/reader/missing", "1.0.0", 1 << 20)));
    }

    @Test
    void aBlobOverTheLimit() throws Exception {
        byte[] big = ManifestFixtures.tar(Map.of("manifest.yaml", ManifestFixtures.MODULE_YAML
                + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: kpack}\ndata: {blob: \""
                + "x".repeat(64 * 1024) + "\"}\n"));
        push.pushComponent(descriptor("e2e.rekon.dev/reader/large", "1.0.0", big), big);
        ComponentRead r = read("e2e.rekon.dev/reader/large", "1.0.0", 32 * 1024);
        assertEquals("BlobTooLarge", reason(r));
        assertTrue(((ComponentRead.Refused) r).message().contains("max-blob-bytes"), r.toString());
    }

    @Test
    void aRecordedDigestThatIsNotTheBlobs() throws Exception {
        ObjectNode d = descriptor("e2e.rekon.dev/reader/digest", "1.0.0", TAR);
        ((ObjectNode) ManifestFixtures.rawManifest(d).get("digest")).put("value", "0".repeat(64));
        push.pushComponent(d, TAR);
        assertEquals("DigestMismatch", reason(read("e2e.rekon.dev/reader/digest", "1.0.0", 1 << 20)));
    }

    @Test
    void aTagThatIsNotThere() {
        assertEquals("ComponentNotFound", reason(read("e2e.rekon.dev/reader/nothing", "1.0.0", 1 << 20)));
    }

    /** A component version whose descriptor layer is {@code layer}; without {@code named}, its config names none. */
    static void pushRaw(String repo, String tag, byte[] layer, boolean named) throws Exception {
        String layerDigest = push.pushBlob(repo, layer);
        ObjectNode config = TestSigning.JSON.createObjectNode();
        if (named) {
            config.putObject("componentDescriptorLayer").put("mediaType",
                    "application/vnd.ocm.software.component-descriptor.v2+yaml+tar").put("digest", layerDigest)
                    .put("size", layer.length);
        }
        byte[] configBytes = TestSigning.JSON.writeValueAsBytes(config);
        ObjectNode m = TestSigning.JSON.createObjectNode().put("schemaVersion", 2).put("mediaType", OcmRegistry.OCI_MANIFEST);
        m.putObject("config").put("mediaType", "application/vnd.ocm.software.component.config.v1+json")
                .put("digest", push.pushBlob(repo, configBytes)).put("size", configBytes.length);
        m.withArray("layers").addObject().put("mediaType", "application/vnd.ocm.software.component-descriptor.v2+yaml+tar")
                .put("digest", layerDigest).put("size", layer.length);
        push.pushManifest(repo, tag, m);
    }
}
