package dev.rekon.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Waits, bounded, for an effect Rekon produces after its reply (Kubernetes Events, registry notifications). */
public final class Await {

    private Await() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(20), condition);
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                fail("waited " + timeout.toSeconds() + " s for " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while waiting for " + what);
            }
        }
    }
}
