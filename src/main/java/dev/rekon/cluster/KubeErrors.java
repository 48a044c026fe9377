package dev.rekon.cluster;

import java.io.IOException;
import java.util.function.Supplier;

import dev.rekon.core.TransientFailureException;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Sorts API server failures at the edge: unreachable, 5xx, 409 conflicts and 429 throttling are transient
 * (the event is redelivered); everything else is permanent and reaches the caller as a
 * {@link PermanentApiException} carrying the HTTP code and the server's message.
 */
public final class KubeErrors {

    private KubeErrors() {
    }

    /** A request the API server refused for good (403, 404, 422, ...). */
    public static class PermanentApiException extends RuntimeException {
        private final int code;

        public PermanentApiException(int code, String message, Throwable cause) {
            super(message, cause);
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    public static <T> T call(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (KubernetesClientException e) {
            throw classify(what, e);
        }
    }

    public static void run(String what, Runnable call) {
        call(what, () -> {
            call.run();
            return null;
        });
    }

    public static RuntimeException classify(String what, KubernetesClientException e) {
        int code = e.getCode();
        if (isTransient(e)) {
            return new TransientFailureException(what + " failed" + (code > 0 ? " with HTTP " + code : "")
                    + ": " + reason(e), e);
        }
        return new PermanentApiException(code, what + " was refused with HTTP " + code + ": " + reason(e), e);
    }

    static boolean isTransient(KubernetesClientException e) {
        int code = e.getCode();
        return code <= 0 || code >= 500 || code == 409 || code == 429 || code == 408 || causedByIo(e);
    }

    /** Whether a failure is (or was caused by) a 409: a write guarded by a resourceVersion lost a race. */
    public static boolean isConflict(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof KubernetesClientException k && k.getCode() == 409) {
                return true;
            }
        }
        return false;
    }

    private static boolean causedByIo(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static String reason(KubernetesClientException e) {
        if (e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage();
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
