package dev.rekon.core;

/**
 * The event itself is malformed (missing attribute, unreadable data, wrong shape). Answered with HTTP 400
 * and the message, which must say what to fix; Knative does not retry a 400.
 */
public class InvalidEventException extends RuntimeException {

    public InvalidEventException(String message) {
        super(message);
    }

    public InvalidEventException(String message, Throwable cause) {
        super(message, cause);
    }
}
