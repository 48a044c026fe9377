package dev.rekon.core;

/**
 * The client found no such kind in the apiserver's discovery, so no request was sent: a custom kind whose CRD is
 * not installed, or not yet served. Transient by default (the CRD may be on its way, the event is redelivered); a
 * read that knows the kind's CRD comes with the very objects it reads for answers "none of them" instead.
 */
public class KindNotServedException extends TransientFailureException {

    private final ObjectRef ref;

    public KindNotServedException(ObjectRef ref, String message, Throwable cause) {
        super(message, cause);
        this.ref = ref;
    }

    /** The object or kind the request was about, or null when the caller did not name it. */
    public ObjectRef ref() {
        return ref;
    }
}
