package dev.rekon.pipeline;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.rekon.core.ConflictException;
import dev.rekon.core.TransientFailureException;

/**
 * Optimistic concurrency, the same in every area: an attempt reads, plans and writes guarded by the
 * resourceVersion it read; when the write loses a race ({@link ConflictException}) another event got there first,
 * so the attempt runs again from fresh reads, after a short jittered pause that lets racing events spread out.
 * After {@value #ATTEMPTS} attempts (one per racing event is plenty) the conflict goes up as a transient failure:
 * 503, and Knative redelivers. Failures other than conflicts go up at once.
 * <p>
 * Retries are never nested: an attempt that is itself inside an attempt on the same thread runs once, and its
 * conflict goes up to the outer loop, which plans the whole object again. Without this an inner loop of 8 inside
 * an outer loop of 8 could make 64 attempts, each reading again.
 */
public final class ConflictRetry {

    public static final int ATTEMPTS = 8;
    private static final long MAX_PAUSE_MICROS = 50_000;
    private static final ThreadLocal<Boolean> FRESH = new ThreadLocal<>();

    /** One read → plan → write; {@code fresh} after a conflict, when reads must bypass the watch caches. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run(boolean fresh);
    }

    private ConflictRetry() {
    }

    public static <T> T run(Attempt<T> attempt) {
        Boolean outer = FRESH.get();
        if (outer != null) {
            return attempt.run(outer);
        }
        try {
            for (int n = 1;; n++) {
                FRESH.set(n > 1);
                try {
                    return attempt.run(n > 1);
                } catch (ConflictException e) {
                    if (n >= ATTEMPTS) {
                        throw e;
                    }
                    pause(n);
                }
            }
        } finally {
            FRESH.remove();
        }
    }

    /** Whether the calling thread is inside an attempt (then a loop it starts runs once, on this thread). */
    public static boolean inAttempt() {
        return FRESH.get() != null;
    }

    /** The one test for a lost race, wherever it was caught: the gateways throw {@link ConflictException}. */
    public static boolean isConflict(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ConflictException) {
                return true;
            }
        }
        return false;
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
