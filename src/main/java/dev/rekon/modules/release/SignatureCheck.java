package dev.rekon.modules.release;

/**
 * How a release's signature checked against the configured public keys: verified (naming the key), absent,
 * or present but not verifying (wrong key, tampered content, unsupported algorithm), with a reason and a
 * message saying what to fix.
 */
public record SignatureCheck(Status status, String reason, String message) {

    /** The three results a signature check has. */
    public enum Status {
        VERIFIED, MISSING, INVALID
    }

    public static SignatureCheck verified(String message) {
        return new SignatureCheck(Status.VERIFIED, "SignatureVerified", message);
    }

    public static SignatureCheck missing(String message) {
        return new SignatureCheck(Status.MISSING, "SignatureMissing", message);
    }

    public static SignatureCheck invalid(String reason, String message) {
        return new SignatureCheck(Status.INVALID, reason, message);
    }
}
