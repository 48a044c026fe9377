package dev.rekon.registry;

/**
 * A registry request failed. {@link #isTransient()} says whether trying again later may help (unreachable,
 * timeout, 5xx, 429); permanent failures carry a CamelCase reason (ImageNotFound, RegistryUnauthorized, ...)
 * and a message saying what to fix.
 */
public class RegistryException extends RuntimeException {

    private final boolean transientFailure;
    private final String reason;

    public RegistryException(boolean transientFailure, String reason, String message, Throwable cause) {
        super(message, cause);
        this.transientFailure = transientFailure;
        this.reason = reason;
    }

    public static RegistryException permanent(String reason, String message) {
        return new RegistryException(false, reason, message, null);
    }

    public static RegistryException retryable(String message, Throwable cause) {
        return new RegistryException(true, "RegistryUnavailable", message, cause);
    }

    public boolean isTransient() {
        return transientFailure;
    }

    public String reason() {
        return reason;
    }
}
