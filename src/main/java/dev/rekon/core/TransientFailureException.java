package dev.rekon.core;

/**
 * A dependency failed in a way that may pass (API server or registry unreachable, write conflict,
 * throttling). Answered with HTTP 503 so that Knative redelivers the event; nothing was half-applied.
 */
public class TransientFailureException extends RuntimeException {

    public TransientFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
