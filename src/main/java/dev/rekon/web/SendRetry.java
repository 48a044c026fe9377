package dev.rekon.web;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Decides whether a failed send of an outgoing event goes out again, and after how long: a sink that did not answer
 * (no connection, a timeout, a reset) or answered that it cannot take it now (5xx, 408, 429) is asked again after a
 * backoff that doubles from {@code first} up to {@code max}, at most {@code sends} times in all; one that refused
 * the event (any other answer) is never asked again, nor is a failure that is no send's (a bug).
 */
public record SendRetry(int sends, Duration first, Duration max) {

    /** Four sends within about 1.5 s: a sink that restarts is waited for, a sink that is down costs little. */
    public static final SendRetry DEFAULT = new SendRetry(4, Duration.ofMillis(200), Duration.ofMillis(800));

    public SendRetry {
        if (sends < 1 || first.isNegative() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("sends must be at least 1 and first <= max: " + sends + ", " + first
                    + ", " + max);
        }
    }

    /** After {@code made} sends, the last failing with {@code failure}: the pause before the next, or none. */
    public Optional<Duration> again(int made, Throwable failure) {
        if (made >= sends || !isTransient(unwrapped(failure))) {
            return Optional.empty();
        }
        Duration pause = first.multipliedBy(1L << Math.min(made - 1, 20));
        return Optional.of(pause.compareTo(max) > 0 ? max : pause);
    }

    private static boolean isTransient(Throwable failure) {
        if (failure instanceof CloudEventSink.NotAccepted refused) {
            int status = refused.status();
            return status >= 500 || status == 408 || status == 429;
        }
        return failure instanceof IOException;
    }

    static Throwable unwrapped(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
