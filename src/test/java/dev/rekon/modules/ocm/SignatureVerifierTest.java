package dev.rekon.modules.ocm;

import static dev.rekon.modules.ocm.TestSigning.OTHER;
import static dev.rekon.modules.ocm.TestSigning.TRUSTED;
import static dev.rekon.modules.ocm.TestSigning.kpackDescriptor;
import static dev.rekon.modules.ocm.TestSigning.sign;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.release.SignatureCheck.Status;
import dev.rekon.modules.release.SignatureCheck;

class SignatureVerifierTest {

    static final SignatureVerifier VERIFIER = new SignatureVerifier(
            PublicKeys.parse("trusted.pem", PublicKeys.pem(TRUSTED.getPublic())));
    static final String COMPONENT = "component kyma-project.io/module/kpack:0.4.3";

    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource({
            "RSASSA-PKCS1-V1_5, jsonNormalisation/v1",
            "RSASSA-PKCS1-V1_5, jsonNormalisation/v2",
            "RSASSA-PKCS1-V1_5, jsonNormalisation/v3",
            "RSASSA-PSS, jsonNormalisation/v3",
            "RSASSA-PSS, jsonNormalisation/v4alpha1",
            "RSASSA-PKCS1-V1_5, jsonNormalisation/v4alpha1",
    })
    void acceptsADescriptorSignedWithATrustedKey(String algorithm, String normalisation) {
        ObjectNode signed = sign(kpackDescriptor("0.4.3"), TRUSTED.getPrivate(), algorithm, normalisation);
        SignatureCheck check = VERIFIER.verify(ComponentDescriptor.parse(signed, "test"));
        assertEquals(SignatureCheck.verified("signature 'kyma-module-signature' (" + algorithm
                + ") verified with key trusted.pem"), check);
    }

    /** A signature whose value was changed after signing (one bit), or made by another key, never verifies. */
    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource({
            "RSASSA-PKCS1-V1_5, jsonNormalisation/v4alpha1",
            "RSASSA-PSS, jsonNormalisation/v4alpha1",
            "RSASSA-PKCS1-V1_5, jsonNormalisation/v3",
            "RSASSA-PSS, jsonNormalisation/v3",
    })
    void refusesATamperedSignatureValue(String algorithm, String normalisation) {
        ObjectNode signed = sign(kpackDescriptor("0.4.3"), TRUSTED.getPrivate(), algorithm, normalisation);
        ObjectNode value = (ObjectNode) signed.at("/signatures/0/signature");
        String hex = value.path("value").asText();
        char last = hex.charAt(hex.length() - 1);
        value.put("value", hex.substring(0, hex.length() - 1) + (last == '0' ? '1' : '0'));
        assertEquals(SignatureCheck.invalid("SignatureInvalid", "signature 'kyma-module-signature' (" + algorithm
                + ") verifies with none of the 1 configured public key(s); sign with a trusted key or add its public"
                + " key to rekon.modules.public-keys"), VERIFIER.verify(ComponentDescriptor.parse(signed, "test")));
    }

    /** RSASSA-PSS signers differ in salt: OCM's Go signer uses the largest, others the hash length. */
    @Test
    void acceptsRsassaPssWithTheHashLengthSalt() throws Exception {
        ObjectNode descriptor = kpackDescriptor("0.4.3");
        byte[] normalised = Normalisation.normalise(descriptor, Normalisation.V4ALPHA1);
        java.security.Signature pss = java.security.Signature.getInstance("RSASSA-PSS");
        pss.setParameter(new java.security.spec.PSSParameterSpec("SHA-256", "MGF1",
                java.security.spec.MGF1ParameterSpec.SHA256, 32, 1));
        pss.initSign(TRUSTED.getPrivate());
        pss.update(normalised);
        String value = java.util.HexFormat.of().formatHex(pss.sign());
        assertEquals(Status.VERIFIED, VERIFIER.verifyBytes(normalised, SignatureVerifier.PSS, value, "sig").status());
    }

    @Test
    void saysWhenThereIsNoSignature() {
        assertEquals(SignatureCheck.missing(COMPONENT + " has no signatures[]"),
                VERIFIER.verify(ComponentDescriptor.parse(kpackDescriptor("0.4.3"), "test")));
    }

    @Test
    void refusesASignatureByAnUntrustedKey() {
        ObjectNode signed = sign(kpackDescriptor("0.4.3"), OTHER.getPrivate(), SignatureVerifier.PKCS1, Normalisation.V3);
        assertEquals(SignatureCheck.invalid("SignatureInvalid", "signature 'kyma-module-signature' (RSASSA-PKCS1-V1_5)"
                + " verifies with none of the 1 configured public key(s); sign with a trusted key or add its public"
                + " key to rekon.modules.public-keys"), VERIFIER.verify(ComponentDescriptor.parse(signed, "test")));
    }

    @Test
    void refusesADescriptorChangedAfterSigning() {
        ObjectNode signed = sign(kpackDescriptor("0.4.3"), TRUSTED.getPrivate(), SignatureVerifier.PKCS1,
                Normalisation.V3);
        ((ObjectNode) signed.at("/component/resources/0/digest")).put("value", "9".repeat(64));
        SignatureCheck check = VERIFIER.verify(ComponentDescriptor.parse(signed, "test"));
        assertEquals(Status.INVALID, check.status());
        assertEquals("DigestMismatch", check.reason());
    }

    @Test
    void refusesATamperedDigestEntryThatStillMatchesTheContent() {
        ObjectNode signed = sign(kpackDescriptor("0.4.3"), TRUSTED.getPrivate(), SignatureVerifier.PKCS1,
                Normalisation.V3);
        ((ObjectNode) signed.at("/component/resources/0/digest")).put("value", "9".repeat(64));
        ObjectNode resigned = sign(signed.without("signatures"), OTHER.getPrivate(), SignatureVerifier.PKCS1,
                Normalisation.V3);
        assertEquals("SignatureInvalid", VERIFIER.verify(ComponentDescriptor.parse(resigned, "test")).reason());
    }

    @Test
    void refusesImagesWhoseDigestTheSignatureDoesNotCover() {
        ObjectNode descriptor = kpackDescriptor("0.4.3");
        ((ObjectNode) descriptor.at("/component/resources/1")).remove("digest");
        ObjectNode signed = sign(descriptor, TRUSTED.getPrivate(), SignatureVerifier.PKCS1, Normalisation.V3);
        assertEquals(SignatureCheck.invalid("ImageNotCovered", COMPONENT + " has image resources [webhook] without a"
                + " SHA-256 digest, so no signature covers those images; add their digests before signing"),
                VERIFIER.verify(ComponentDescriptor.parse(signed, "test")));
    }

    @Test
    void pinsImagesToTheSignedDigestWhereverTheAccessPoints() {
        ObjectNode moved = kpackDescriptor("0.4.3");
        ((ObjectNode) moved.at("/component/resources/0/access")).put("imageReference",
                "evil.example/controller:0.4.3@sha256:" + "f".repeat(64));
        assertEquals(Map.of("controller", "evil.example/controller:0.4.3@sha256:" + "1".repeat(64),
                "webhook", "registry.example/kpack/webhook:0.4.3@sha256:" + "2".repeat(64)),
                ComponentDescriptor.parse(moved, "test").images());
    }

    @Test
    void acceptsWhenOneOfSeveralSignaturesVerifies() {
        ObjectNode twice = sign(sign(kpackDescriptor("0.4.3"), OTHER.getPrivate(), SignatureVerifier.PKCS1,
                Normalisation.V1), TRUSTED.getPrivate(), SignatureVerifier.PSS, Normalisation.V3);
        assertEquals(Status.VERIFIED, VERIFIER.verify(ComponentDescriptor.parse(twice, "test")).status());
    }

    @Test
    void verifiesDetachedSignatures() {
        byte[] content = "{\"module\":\"kpack\"}".getBytes(StandardCharsets.UTF_8);
        String good = TestSigning.sign(content, TRUSTED.getPrivate(), SignatureVerifier.PKCS1);
        assertEquals(Status.VERIFIED, VERIFIER.verifyBytes(content, SignatureVerifier.PKCS1, good, "sig").status());
        String other = TestSigning.sign(content, OTHER.getPrivate(), SignatureVerifier.PKCS1);
        assertEquals("SignatureInvalid", VERIFIER.verifyBytes(content, SignatureVerifier.PKCS1, other, "sig").reason());
        assertEquals("SignatureInvalid", VERIFIER.verifyBytes(content, SignatureVerifier.PKCS1, "zz", "sig").reason());
        assertEquals(SignatureCheck.invalid("UnsupportedSignatureAlgorithm", "sig uses algorithm 'ECDSA'; use"
                + " RSASSA-PKCS1-V1_5 or RSASSA-PSS over SHA-256"),
                VERIFIER.verifyBytes(content, "ECDSA", good, "sig"));
        assertEquals("NoTrustedKeys",
                new SignatureVerifier(List.of()).verifyBytes(content, SignatureVerifier.PKCS1, good, "sig").reason());
    }

    @Test
    void readsPkcs1PublicKeysAsOcmWritesThem() throws Exception {
        java.security.interfaces.RSAPublicKey rsa = (java.security.interfaces.RSAPublicKey) TRUSTED.getPublic();
        byte[] spki = rsa.getEncoded();
        // The PKCS#1 key is the BIT STRING content of the SubjectPublicKeyInfo, after its 24-byte header.
        byte[] pkcs1 = java.util.Arrays.copyOfRange(spki, 24, spki.length);
        assertEquals(spki.length, PublicKeys.subjectPublicKeyInfo(pkcs1).length);
        String pem = "-----BEGIN RSA PUBLIC KEY-----\n" + java.util.Base64.getMimeEncoder().encodeToString(pkcs1)
                + "\n-----END RSA PUBLIC KEY-----\n";
        assertEquals(rsa, PublicKeys.parse("ocm.pem", pem).get(0).key());
    }
}
