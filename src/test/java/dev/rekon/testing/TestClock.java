package dev.rekon.testing;

import java.time.Clock;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The one clock of a Rekon started by a test: the system's, plus an offset an end-to-end test may advance (as for
 * a soak of 24 hours) and must {@link MovableClock#reset()} when done. Untouched, it tells the system time.
 */
@Singleton
public class TestClock {

    public static final MovableClock CLOCK = new MovableClock(Clock.systemUTC());

    @Produces
    @Singleton
    @Alternative
    @Priority(1)
    Clock clock() {
        return CLOCK;
    }
}
