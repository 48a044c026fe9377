package dev.rekon.cluster;

import java.io.IOException;
import java.util.function.Supplier;

import dev.rekon.core.ConflictException;
import dev.rekon.core.ForbiddenException;
import dev.rekon.core.KindNotServedException;
import dev.rekon.core.NotFoundException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.http.HttpClosedException;

/**
 * Sorts API server failures at the edge: unreachable, 5xx, 409 conflicts and 429 throttling are transient
 * (the event is redelivered), a kind discovery does not list is {@link KindNotServedException} (transient too);
 * everything else is permanent and reaches the caller as a refusal carrying the HTTP code and the server's message:
 * {@link NotFoundException} (404), {@link ForbiddenException} (403), else a {@link PermanentApiException}. Callers
 * catch these types, never a code or a message.
 */
public final class KubeErrors {

    private KubeErrors() {
    }

    /** A request the API server refused for good (403, 404, 422, ...), in Rekon's own terms. */
    public static class PermanentApiException extends RefusedException {
        public PermanentApiException(int code, ObjectRef ref, String message, Throwable cause) {
            super(code, ref, message, cause);
        }

        public PermanentApiException(int code, String message, Throwable cause) {
            this(code, null, message, cause);
        }
    }

    public static <T> T call(String what, Supplier<T> call) {
        return call(null, what, call);
    }

    /**
     * Runs one API call about {@code ref}, its failure sorted into Rekon's terms naming that object; sent again, at
     * most {@link #CLOSED_RESENDS} times, while the connection it went out on was closed under it
     * ({@link #closedUnderneath}).
     */
    public static <T> T call(ObjectRef ref, String what, Supplier<T> call) {
        for (int resend = 0;; resend++) {
            try {
                return call.get();
            } catch (KubernetesClientException e) {
                if (resend >= CLOSED_RESENDS || !closedUnderneath(e)) {
                    throw classify(ref, what, e);
                }
                pause(resend);
            }
        }
    }

    /**
     * A restarted apiserver can leave several pooled connections closed at once (the loop runs calls in parallel):
     * one resend may draw the next closed one, as CI's chaos run saw, so a few are tried, each a little later.
     */
    static final int CLOSED_RESENDS = 3;

    private static void pause(int resend) {
        try {
            Thread.sleep(resend == 0 ? 0 : 50L << resend);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether the connection a request went out on was closed as it was sent: a pooled keep-alive connection the
     * apiserver had just closed (idle, restarting). fabric8 sends a request again after an IOException, but Vert.x
     * reports this one as its own {@link HttpClosedException}, and the event was answered 503. Sending it once more is
     * safe because every write Rekon makes is guarded: a resourceVersion precondition, a create that fails when the
     * object exists; a write that did land the first time comes back as a conflict, planned again.
     */
    public static boolean closedUnderneath(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof HttpClosedException) {
                return true;
            }
        }
        return false;
    }

    public static void run(String what, Runnable call) {
        call(what, () -> {
            call.run();
            return null;
        });
    }

    public static RuntimeException classify(String what, KubernetesClientException e) {
        return classify(null, what, e);
    }

    public static RuntimeException classify(ObjectRef ref, String what, KubernetesClientException e) {
        int code = e.getCode();
        if (code == 409) {
            return new ConflictException(ref, what + " lost a write race (HTTP 409): " + reason(e), e);
        }
        if (code <= 0 && String.valueOf(e.getMessage()).contains(UNDISCOVERED_KIND)) {
            return new KindNotServedException(ref, what + " failed: " + reason(e), e);
        }
        if (isTransient(e)) {
            return new TransientFailureException(what + " failed" + (code > 0 ? " with HTTP " + code : "")
                    + ": " + reason(e), e);
        }
        String refused = what + " was refused with HTTP " + code + ": " + reason(e);
        return switch (code) {
            case 404 -> new NotFoundException(ref, refused, e);
            case 403 -> new ForbiddenException(ref, refused, e);
            default -> new PermanentApiException(code, ref, refused, e);
        };
    }

    /** fabric8's words when discovery lists no such kind, so that it sent no request (and has no HTTP code). */
    private static final String UNDISCOVERED_KIND = "Could not find the metadata";

    static boolean isTransient(KubernetesClientException e) {
        int code = e.getCode();
        return code <= 0 || code >= 500 || code == 409 || code == 429 || code == 408 || causedByIo(e);
    }

    /** Whether a failure is (or was caused by) a 409: a write guarded by a resourceVersion lost a race. */
    public static boolean isConflict(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ConflictException || c instanceof KubernetesClientException k && k.getCode() == 409) {
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
