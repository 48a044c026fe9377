package dev.rekon.core;

/**
 * The identity a request was made as may not make it (HTTP 403): RBAC refused it. Sorted at the edge, so that an
 * area that can do without the answer (a list its ServiceAccount may not make) catches this type, never a code.
 * Uncaught, it is a refusal like any other.
 */
public class ForbiddenException extends RefusedException {

    public ForbiddenException(ObjectRef ref, String message, Throwable cause) {
        super(403, ref, message, cause);
    }
}
