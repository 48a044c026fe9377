package dev.rekon.core;

/**
 * A write guarded by the resourceVersion it was planned from lost a race (HTTP 409): another writer got there
 * first. Thrown at the gateway edge; the reconcile loop plans again from fresh reads, and after its last attempt
 * the conflict goes up as the transient failure it is (503, Knative redelivers).
 */
public class ConflictException extends TransientFailureException {

    private final ObjectRef ref;

    public ConflictException(ObjectRef ref, String message, Throwable cause) {
        super(message, cause);
        this.ref = ref;
    }

    /** The object whose write lost the race, or null when the gateway could not name it. */
    public ObjectRef ref() {
        return ref;
    }
}
