package dev.rekon.modules.ocm;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.HexFormat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Signs descriptors and bytes the way the OCM tooling does, with keys generated for the test run. */
public final class TestSigning {

    public static final ObjectMapper JSON = new ObjectMapper();
    public static final KeyPair TRUSTED = generate();
    public static final KeyPair OTHER = generate();

    private TestSigning() {
    }

    public static KeyPair generate() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds a signatures[] entry made with {@code key} over the descriptor's normalised form. */
    public static ObjectNode sign(JsonNode descriptor, PrivateKey key, String algorithm, String normalisation) {
        ObjectNode signed = descriptor.deepCopy();
        byte[] normalised = Normalisation.normalise(signed, normalisation);
        ObjectNode entry = signed.withArray("signatures").addObject();
        entry.put("name", "kyma-module-signature");
        entry.putObject("digest").put("hashAlgorithm", "SHA-256").put("normalisationAlgorithm", normalisation)
                .put("value", HexFormat.of().formatHex(SignatureVerifier.sha256(normalised)));
        entry.putObject("signature").put("algorithm", algorithm).put("mediaType", "application/vnd.ocm.signature.rsa")
                .put("value", sign(normalised, key, algorithm));
        return signed;
    }

    public static String sign(byte[] content, PrivateKey key, String algorithm) {
        try {
            Signature s;
            if (SignatureVerifier.PSS.equals(algorithm)) {
                s = Signature.getInstance("RSASSA-PSS");
                s.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 222, 1));
            } else {
                s = Signature.getInstance("SHA256withRSA");
            }
            s.initSign(key);
            s.update(content);
            return HexFormat.of().formatHex(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A kpack module descriptor in the shape lifecycle-manager's ModuleTemplates carry. */
    public static ObjectNode kpackDescriptor(String version) {
        try {
            return (ObjectNode) JSON.readTree(("""
                    {"component": {"componentReferences": [], "creationTime": "2026-03-01T12:00:00Z",
                      "name": "kyma-project.io/module/kpack", "provider": "kyma-project.io",
                      "repositoryContexts": [{"baseUrl": "registry.example", "componentNameMapping": "urlPath",
                        "type": "OCIRegistry"}],
                      "labels": [{"name": "security-scan", "value": "enabled"},
                                 {"name": "module-owner", "value": "kpack-team", "signing": true}],
                      "resources": [
                        {"access": {"imageReference": "registry.example/kpack/controller:VERSION", "type": "ociArtifact"},
                         "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "ociArtifactDigest/v1",
                           "value": "1111111111111111111111111111111111111111111111111111111111111111"},
                         "name": "controller", "relation": "external", "type": "ociArtifact", "version": "VERSION"},
                        {"access": {"imageReference": "registry.example/kpack/webhook:VERSION", "type": "ociArtifact"},
                         "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "ociArtifactDigest/v1",
                           "value": "2222222222222222222222222222222222222222222222222222222222222222"},
                         "name": "webhook", "relation": "external", "type": "ociImage", "version": "VERSION"},
                        {"access": {"localReference": "sha256:3333", "mediaType": "application/x-tar", "type": "localBlob"},
                         "digest": {"hashAlgorithm": "SHA-256", "normalisationAlgorithm": "genericBlobDigest/v1",
                           "value": "3333333333333333333333333333333333333333333333333333333333333333"},
                         "name": "raw-manifest", "relation": "local", "type": "directory", "version": "VERSION"}],
                      "sources": [], "version": "VERSION"},
                     "meta": {"schemaVersion": "v2"}}
                    """).replace("VERSION", version));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
