package dev.rekon.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock a test moves, never sleeping: it runs from a base clock (fixed, or the system's) plus an offset the test
 * advances. Without an offset it tells the base clock's time.
 */
public final class MovableClock extends Clock {

    private final Clock base;
    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    /** Fixed at the time it was made, until advanced. */
    public MovableClock() {
        this(Clock.fixed(Instant.now(), ZoneOffset.UTC));
    }

    public MovableClock(Instant start) {
        this(Clock.fixed(start, ZoneOffset.UTC));
    }

    public MovableClock(Clock base) {
        this.base = base;
    }

    public void advance(Duration d) {
        offset.updateAndGet(o -> o.plus(d));
    }

    /** Tells {@code instant} now (and moves on from there with the base clock). */
    public void set(Instant instant) {
        offset.set(Duration.between(base.instant(), instant));
    }

    public void reset() {
        offset.set(Duration.ZERO);
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset.get());
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
