package dev.rekon.modules.ocm;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import dev.rekon.modules.ocm.PublicKeys.NamedKey;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Decides whether a release is signed by one of the configured keys: an OCM descriptor when one of its
 * {@code signatures[]} has a SHA-256 digest equal to that of the descriptor's normalised form and an RSA
 * signature (RSASSA-PKCS1-V1_5 or RSASSA-PSS, hex-encoded) over it that a configured key verifies; a
 * detached signature when it verifies over the given bytes.
 */
public final class SignatureVerifier {

    public static final String PKCS1 = "RSASSA-PKCS1-V1_5";
    public static final String PSS = "RSASSA-PSS";
    public static final String SHA256 = "SHA-256";

    private final List<NamedKey> keys;

    public SignatureVerifier(List<NamedKey> keys) {
        this.keys = List.copyOf(keys);
    }

    public SignatureCheck verify(ComponentDescriptor cd) {
        String what = "component " + cd.name() + ":" + cd.version();
        if (cd.signatures().isEmpty()) {
            return SignatureCheck.missing(what + " has no signatures[]");
        }
        List<String> uncovered = cd.imagesWithoutDigest();
        if (!uncovered.isEmpty()) {
            return SignatureCheck.invalid("ImageNotCovered", what + " has image resources " + uncovered + " without a"
                    + " SHA-256 digest, so no signature covers those images; add their digests before signing");
        }
        SignatureCheck first = null;
        for (ComponentDescriptor.Signature s : cd.signatures()) {
            SignatureCheck check = verify(cd, s);
            if (check.status() == SignatureCheck.Status.VERIFIED) {
                return check;
            }
            first = first == null ? check : first;
        }
        return first;
    }

    private SignatureCheck verify(ComponentDescriptor cd, ComponentDescriptor.Signature s) {
        String sig = "signature '" + s.name() + "'";
        if (!SHA256.equals(s.hashAlgorithm())) {
            return SignatureCheck.invalid("UnsupportedSignatureAlgorithm", sig + " uses hash '" + s.hashAlgorithm()
                    + "'; sign with " + SHA256);
        }
        byte[] normalised;
        try {
            normalised = Normalisation.normalise(cd.raw(), s.normalisationAlgorithm());
        } catch (IllegalArgumentException e) {
            return SignatureCheck.invalid("UnsupportedSignatureAlgorithm", sig + ": " + e.getMessage());
        }
        String digest = HexFormat.of().formatHex(sha256(normalised));
        if (!digest.equalsIgnoreCase(s.digest())) {
            return SignatureCheck.invalid("DigestMismatch", sig + " was made over digest " + s.digest()
                    + " but the descriptor now digests to " + digest + " (" + s.normalisationAlgorithm()
                    + "): it was changed after signing; publish the descriptor as it was signed, or sign it again");
        }
        return verifyBytes(normalised, s.algorithm(), s.value(), sig);
    }

    /** Verifies a detached, hex-encoded signature over {@code content}. */
    public SignatureCheck verifyBytes(byte[] content, String algorithm, String hexValue, String what) {
        if (!PKCS1.equals(algorithm) && !PSS.equals(algorithm)) {
            return SignatureCheck.invalid("UnsupportedSignatureAlgorithm", what + " uses algorithm '" + algorithm
                    + "'; use " + PKCS1 + " or " + PSS + " over " + SHA256);
        }
        byte[] value;
        try {
            value = HexFormat.of().parseHex(hexValue == null ? "" : hexValue.trim());
        } catch (IllegalArgumentException e) {
            return SignatureCheck.invalid("SignatureInvalid", what + " is not hex-encoded; encode the signature bytes"
                    + " as hex (e.g. xxd -p -c0)");
        }
        if (keys.isEmpty()) {
            return SignatureCheck.invalid("NoTrustedKeys", what + " cannot be checked: no public key is configured;"
                    + " set rekon.modules.public-keys to the PEM files of the keys you trust");
        }
        Optional<NamedKey> match = keys.stream().filter(k -> verifies(k.key(), algorithm, content, value)).findFirst();
        return match.map(k -> SignatureCheck.verified(what + " (" + algorithm + ") verified with key " + k.name()))
                .orElseGet(() -> SignatureCheck.invalid("SignatureInvalid", what + " (" + algorithm
                        + ") verifies with none of the " + keys.size() + " configured public key(s); sign with a"
                        + " trusted key or add its public key to rekon.modules.public-keys"));
    }

    static boolean verifies(PublicKey key, String algorithm, byte[] content, byte[] value) {
        try {
            if (PKCS1.equals(algorithm)) {
                return verifyWith(Signature.getInstance("SHA256withRSA"), key, content, value);
            }
            // Go's OCM signer uses the largest salt, other tools the hash length: accept both.
            int maxSalt = (((RSAPublicKey) key).getModulus().bitLength() + 7) / 8 - 32 - 2;
            for (int salt : new int[] { 32, maxSalt }) {
                Signature pss = Signature.getInstance("RSASSA-PSS");
                pss.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, salt, 1));
                if (verifyWith(pss, key, content, value)) {
                    return true;
                }
            }
            return false;
        } catch (GeneralSecurityException | ClassCastException e) {
            return false;
        }
    }

    private static boolean verifyWith(Signature s, PublicKey key, byte[] content, byte[] value)
            throws GeneralSecurityException {
        s.initVerify(key);
        s.update(content);
        try {
            return s.verify(value);
        } catch (java.security.SignatureException malformed) {
            return false;
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
