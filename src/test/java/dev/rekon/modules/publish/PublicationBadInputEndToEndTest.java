package dev.rekon.modules.publish;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.manifest.ManifestFixtures;
import dev.rekon.modules.manifest.OcmRegistry;
import dev.rekon.modules.ocm.Normalisation;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The bad input of module publication, on the real registry and apiserver, signatures required: a descriptor that
 * does not parse, a component name that maps to no module, a missing blob, a blob over the size limit, a
 * signature by an untrusted key, a tampered signature and a tag that is no version are each refused with their
 * reason in a 200 reply, and neither a ModuleTemplate nor a ModuleReleaseMeta is written.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = PublicationResource.class, restrictToAnnotatedClass = true)
class PublicationBadInputEndToEndTest {

    static final byte[] TAR = ManifestFixtures.tar(Map.of("config.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: bad-input}\n"));
    final PublicationEndToEndTest pub = new PublicationEndToEndTest();
    final OcmRegistry ocm = new OcmRegistry(LocalRegistry.get().hostPort(), null);

    @BeforeEach
    void names() {
        pub.names();
    }

    ObjectNode descriptor(String version, byte[] tar) {
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, pub.registry, tar);
        ObjectNode c = (ObjectNode) d.get("component");
        c.put("name", pub.component());
        var resources = c.withArray("resources");
        for (int i = resources.size() - 1; i >= 0; i--) {
            if (!"raw-manifest".equals(resources.get(i).path("name").asText())) {
                resources.remove(i);
            }
        }
        return d;
    }

    ObjectNode signed(ObjectNode d) {
        return TestSigning.sign(d, PublicationResource.privateKey(), SignatureVerifier.PSS, Normalisation.V4ALPHA1);
    }

    void refused(String version, String reason, String says) {
        pub.publish(version).body("outcome", equalTo("rejected")).body("reason", equalTo(reason))
                .body("message", containsString(says));
        assertNull(pub.object("ModuleTemplate", pub.module + "-" + version), "no template written");
        assertNull(pub.object("ModuleReleaseMeta", pub.module), "no release meta written");
    }

    @Test
    void aDescriptorThatDoesNotParse() throws Exception {
        String repo = "component-descriptors/" + pub.component();
        byte[] layer = ManifestFixtures.tar(Map.of("component-descriptor.yaml", "component: [not closed\n"));
        String layerDigest = ocm.pushBlob(repo, layer);
        byte[] config = TestSigning.JSON.writeValueAsBytes(TestSigning.JSON.createObjectNode().set(
                "componentDescriptorLayer", TestSigning.JSON.createObjectNode().put("mediaType",
                        "application/vnd.ocm.software.component-descriptor.v2+yaml+tar").put("digest", layerDigest)
                        .put("size", layer.length)));
        ObjectNode m = TestSigning.JSON.createObjectNode().put("schemaVersion", 2).put("mediaType", OcmRegistry.OCI_MANIFEST);
        m.putObject("config").put("mediaType", "application/vnd.ocm.software.component.config.v1+json")
                .put("digest", ocm.pushBlob(repo, config)).put("size", config.length);
        m.withArray("layers").addObject().put("mediaType", "application/vnd.ocm.software.component-descriptor.v2+yaml+tar")
                .put("digest", layerDigest).put("size", layer.length);
        ocm.pushManifest(repo, "1.0.0", m);
        refused("1.0.0", "DescriptorInvalid", "not YAML");
    }

    @Test
    void aComponentNameThatMapsToNoModule() {
        pub.module = "Not_A_Module9";
        refused("1.0.0", "NoModuleName", "maps to no module");
    }

    @Test
    void aMissingBlob() throws Exception {
        byte[] unpushed = ManifestFixtures.bytes("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: never-pushed}\n");
        ObjectNode d = descriptor("1.0.0", TAR);
        ObjectNode cr = ((ObjectNode) d.get("component")).withArray("resources").addObject().put("name", "default-cr")
                .put("type", "yaml").put("relation", "local").put("version", "1.0.0");
        cr.putObject("access").put("type", "localBlob").put("localReference", ManifestFixtures.digest(unpushed))
                .put("mediaType", "application/x-yaml");
        ocm.pushComponent(signed(d), TAR);
        refused("1.0.0", "BlobMissing", "does not list");
    }

    @Test
    void aBlobOverTheSizeLimit() throws Exception {
        byte[] big = new byte[64 * 1024 * 1024 + 1];
        Arrays.fill(big, (byte) 'x');
        ocm.pushComponent(signed(descriptor("1.0.0", big)), big);
        refused("1.0.0", "BlobTooLarge", "max-blob-bytes");
    }

    @Test
    void aBadSignature() throws Exception {
        ocm.pushComponent(TestSigning.sign(descriptor("1.0.0", TAR), TestSigning.OTHER.getPrivate(),
                SignatureVerifier.PKCS1, Normalisation.V4ALPHA1), TAR);
        refused("1.0.0", "SignatureInvalid", "none of the 1 configured public key(s)");
        ObjectNode tampered = signed(descriptor("1.0.1", TAR));
        ObjectNode value = (ObjectNode) tampered.at("/signatures/0/signature");
        String hex = value.path("value").asText();
        // Another first byte, whatever it was: "00" over a signature that starts with 00 (1 run in 256) tampers nothing.
        value.put("value", (hex.startsWith("00") ? "ff" : "00") + hex.substring(2));
        ocm.pushComponent(tampered, TAR);
        refused("1.0.1", "SignatureInvalid", "require-signature");
    }

    @Test
    void aVersionThatIsNotSemver() throws Exception {
        ocm.pushComponent(signed(descriptor("latest", TAR)), TAR);
        refused("latest", "VersionNotSemver", "not a module version");
    }
}
