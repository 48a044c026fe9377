package dev.rekon.pipeline;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.TransientFailureException;

/**
 * Optimistic concurrency, the same in every area: an attempt reads, plans and writes guarded by the
 * resourceVersion it read; when the write loses a race (HTTP 409) another event got there first, so the attempt
 * runs again from fresh reads, after a short jittered pause that lets racing events spread out. After
 * {@value #ATTEMPTS} attempts (one per racing event is plenty) the conflict goes up as a transient failure: 503,
 * and Knative redelivers. Failures other than conflicts go up at once.
 */
public final class ConflictRetry {

    public static final int ATTEMPTS = 8;
    private static final long MAX_PAUSE_MICROS = 50_000;

    /** One read → plan → write; {@code fresh} after a conflict, when reads must bypass the watch caches. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run(boolean fresh);
    }

    private ConflictRetry() {
    }

    public static <T> T run(Attempt<T> attempt) {
        for (int n = 1;; n++) {
            try {
                return attempt.run(n > 1);
            } catch (TransientFailureException e) {
                if (n >= ATTEMPTS || !isConflict(e)) {
                    throw e;
                }
                pause(n);
            }
        }
    }

    /** The one test for a lost race, wherever the 409 was caught. */
    public static boolean isConflict(Throwable t) {
        return KubeErrors.isConflict(t);
    }

    /** Full jitter over an exponential ceiling: 0–1 ms after the first conflict, up to 50 ms later. */
    private static void pause(int failedAttempts) {
        long ceiling = Math.min(MAX_PAUSE_MICROS, 1000L << Math.min(failedAttempts - 1, 16));
        long micros = ThreadLocalRandom.current().nextLong(ceiling + 1);
        try {
            TimeUnit.MICROSECONDS.sleep(micros);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransientFailureException("interrupted while retrying a write conflict", e);
        }
    }
}
