package dev.rekon.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A configured webhook secret. Its value never leaves this class (toString hides it), and every comparison takes
 * the same time whatever the candidate: both sides are hashed to equal length, then compared with
 * {@link MessageDigest#isEqual}. Public for the git push endpoint ({@code dev.rekon.webhooks.git}).
 */
public final class Secret {

    private final byte[] value;

    private Secret(String value) {
        this.value = value.getBytes(StandardCharsets.UTF_8);
    }

    /** Null for an absent or blank value, so an empty Kubernetes Secret key never means "no password". */
    public static Secret ofNullable(String value) {
        return value == null || value.isBlank() ? null : new Secret(value.trim());
    }

    public boolean matches(String candidate) {
        return candidate != null && MessageDigest.isEqual(sha256(value), sha256(candidate.getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code hexSignature} is the HMAC-SHA256 of {@code body} under this secret. */
    public boolean signed(byte[] body, String hexSignature) {
        if (hexSignature == null) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(value, "HmacSHA256"));
            String expected = java.util.HexFormat.of().formatHex(mac.doFinal(body));
            return MessageDigest.isEqual(sha256(expected.getBytes(StandardCharsets.US_ASCII)),
                    sha256(hexSignature.toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException impossible) {
            throw new IllegalStateException("HmacSHA256 unavailable", impossible);
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    @Override
    public String toString() {
        return "Secret[hidden]";
    }
}
