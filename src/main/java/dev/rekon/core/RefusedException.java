package dev.rekon.core;

/**
 * The API server (or another dependency) refused a request for good (403, 404 of a kind, 422, ...): no retry can
 * help. Thrown at the gateway edge carrying the object it concerns; the reconcile loop answers it as
 * {@code rejected} naming that object, with the area's facts.
 */
public class RefusedException extends RuntimeException {

    private final int code;
    private final ObjectRef ref;
    private final String reason;

    public RefusedException(int code, ObjectRef ref, String message, Throwable cause) {
        this(code, ref, null, message, cause);
    }

    /** A refusal with the CamelCase reason its edge sorted it into (ImageNotFound, RegistryUnauthorized, ...). */
    public RefusedException(int code, ObjectRef ref, String reason, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.ref = ref;
        this.reason = reason;
    }

    /** The HTTP status of the refusal, or 0 when it did not come from HTTP. */
    public int code() {
        return code;
    }

    /** The CamelCase reason the edge gave the refusal, or null when it gave none. */
    public String reason() {
        return reason;
    }

    /** The object the refused request was about, or null when the gateway could not name it. */
    public ObjectRef ref() {
        return ref;
    }
}
