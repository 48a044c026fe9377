package dev.rekon.testing;

import dev.rekon.cluster.KubeErrors;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** The failures Rekon's gateways raise, made as the gateways' own edge makes them, for in-memory gateway fakes. */
public final class Failures {

    private Failures() {
    }

    /** A write guarded by a resourceVersion lost a race (HTTP 409): transient. */
    public static RuntimeException conflict(String what) {
        return KubeErrors.classify(what, new KubernetesClientException("the object has been modified", 409, null));
    }

    /** The apiserver refused for good (e.g. 403 forbidden, 422 invalid). */
    public static RuntimeException refused(String what, int code) {
        return KubeErrors.classify(what, new KubernetesClientException("refused", code, null));
    }

    /** The apiserver is unavailable (HTTP 503): transient. */
    public static RuntimeException unavailable(String what) {
        return KubeErrors.classify(what, new KubernetesClientException("unavailable", 503, null));
    }
}
