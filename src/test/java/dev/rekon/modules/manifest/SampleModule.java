package dev.rekon.modules.manifest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.modules.ocm.Normalisation;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;

/**
 * Publishes the sample module (run by {@code hack/push-sample-module.sh}): for each version, a tar of its
 * manifests as the raw-manifest local blob of a signed OCM component pushed to the registry, and its
 * ModuleTemplate, plus a ModuleReleaseMeta offering the first version on channel {@code regular}, as YAML files.
 * <p>
 * Arguments: registry push address ({@code host:port}), the registry address Rekon reads from (the descriptor's
 * baseUrl), a PKCS#8 PEM private key, the output directory, the Kyma objects' namespace, then the versions.
 */
public final class SampleModule {

    /** The module's name: {@code kpack}, or {@code rekon.sample.module} (a test that must not share it). */
    static String module() {
        return System.getProperty("rekon.sample.module", "kpack");
    }

    static String component() {
        return "kyma-project.io/module/" + module();
    }
    private static final YAMLMapper YAML = new YAMLMapper();

    private SampleModule() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 6) {
            throw new IllegalArgumentException("usage: SampleModule <push host:port> <baseUrl> <private-key.pem> <out-dir>"
                    + " <namespace> <version>...");
        }
        OcmRegistry registry = new OcmRegistry(args[0], null);
        PrivateKey key = privateKey(Path.of(args[2]));
        Path out = Files.createDirectories(Path.of(args[3]));
        List<String> versions = List.of(args).subList(5, args.length);
        for (String version : versions) {
            byte[] tar = ManifestFixtures.tar(SampleModuleManifests.files(version));
            ObjectNode descriptor = descriptor(version, args[1], tar);
            ObjectNode signed = TestSigning.sign(descriptor, key, SignatureVerifier.PKCS1, Normalisation.V3);
            String digest = registry.pushComponent(signed, tar);
            Files.writeString(out.resolve("moduletemplate-" + module() + "-" + version + ".yaml"),
                    YAML.writeValueAsString(template(version, args[4], signed)));
            System.out.println("pushed " + args[0] + "/component-descriptors/" + component() + ":" + version + "@" + digest
                    + " (raw-manifest " + ManifestFixtures.digest(tar) + ")");
        }
        Files.writeString(out.resolve("modulereleasemeta-" + module() + ".yaml"),
                YAML.writeValueAsString(releaseMeta(args[4], versions.get(0))));
    }

    /** A component with only the raw-manifest: the module's images are in its manifest. */
    static ObjectNode descriptor(String version, String baseUrl, byte[] tar) {
        ObjectNode d = TestSigning.JSON.createObjectNode();
        d.putObject("meta").put("schemaVersion", "v2");
        ObjectNode c = d.putObject("component").put("name", component()).put("version", version)
                .put("provider", "kyma-project.io").put("creationTime", "2026-03-01T12:00:00Z");
        c.putArray("repositoryContexts").addObject().put("baseUrl", baseUrl).put("componentNameMapping", "urlPath")
                .put("type", "OCIRegistry");
        c.putArray("sources");
        c.putArray("componentReferences");
        ObjectNode raw = c.putArray("resources").addObject().put("name", "raw-manifest").put("type", "directory")
                .put("relation", "local").put("version", version);
        raw.putObject("access").put("type", "localBlob").put("localReference", ManifestFixtures.digest(tar))
                .put("mediaType", "application/x-tar");
        raw.putObject("digest").put("hashAlgorithm", "SHA-256").put("normalisationAlgorithm", "genericBlobDigest/v1")
                .put("value", ManifestReader.sha256(tar));
        return d;
    }

    static ObjectNode template(String version, String namespace, ObjectNode descriptor) throws Exception {
        ObjectNode t = TestSigning.JSON.createObjectNode().put("apiVersion", "operator.kyma-project.io/v1beta2")
                .put("kind", "ModuleTemplate");
        ObjectNode meta = t.putObject("metadata").put("name", module() + "-" + version).put("namespace", namespace);
        meta.putObject("labels").put("operator.kyma-project.io/module-name", module());
        ObjectNode spec = t.putObject("spec").put("moduleName", module()).put("version", version);
        spec.putObject("manager").put("group", "apps").put("version", "v1").put("kind", "Deployment")
                .put("name", "kpack-controller").put("namespace", SampleModuleManifests.namespace());
        spec.set("data", YAML.readTree(SampleModuleManifests.defaultCr()));
        spec.set("descriptor", descriptor);
        return t;
    }

    static ObjectNode releaseMeta(String namespace, String version) {
        ObjectNode m = TestSigning.JSON.createObjectNode().put("apiVersion", "operator.kyma-project.io/v1beta2")
                .put("kind", "ModuleReleaseMeta");
        m.putObject("metadata").put("name", module()).put("namespace", namespace);
        ObjectNode spec = m.putObject("spec").put("moduleName", module()).put("ocmComponentName", component());
        spec.putArray("channels").addObject().put("channel", "regular").put("version", version);
        return m;
    }

    static PrivateKey privateKey(Path pem) throws Exception {
        String text = Files.readString(pem);
        if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new IllegalArgumentException(pem + " is not a PKCS#8 PEM key; make one with openssl genpkey");
        }
        String body = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }
}
