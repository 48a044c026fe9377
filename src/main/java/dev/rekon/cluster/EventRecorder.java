package dev.rekon.cluster;

import dev.rekon.core.ObjectRef;

/**
 * Records Kubernetes Events on the objects Rekon changed or found changed, so {@code kubectl describe} shows
 * them. Events are information about a change already made: recording one never fails the caller.
 */
public interface EventRecorder {

    void normal(ObjectRef about, String reason, String message);

    /** Something a person should look at, such as a Deployment changed by hand. */
    void warning(ObjectRef about, String reason, String message);
}
