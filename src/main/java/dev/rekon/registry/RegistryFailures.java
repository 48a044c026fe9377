package dev.rekon.registry;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;

/**
 * Sorts registry failures at the registry edge into {@code core/}'s two families, so no caller names a class of
 * the registry: trying again later may help (unreachable, timeout, 5xx, 429) is a
 * {@link TransientFailureException}; anything else is a {@link RefusedException} with a CamelCase reason
 * (ImageNotFound, RegistryUnauthorized, DigestMismatch, ...) and a message saying what to fix.
 */
final class RegistryFailures {

    private RegistryFailures() {
    }

    static RefusedException permanent(String reason, String message) {
        return permanent(0, reason, message);
    }

    static RefusedException permanent(int httpCode, String reason, String message) {
        return new RefusedException(httpCode, null, reason, message, null);
    }

    static TransientFailureException retryable(String message, Throwable cause) {
        return new TransientFailureException(message, cause);
    }
}
