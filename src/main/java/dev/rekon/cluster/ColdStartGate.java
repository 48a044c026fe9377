package dev.rekon.cluster;

import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Decides when a fresh process may begin filling its watch caches: once it has answered its first event, or
 * {@value #LONGEST_MILLIS} ms after the process started when none comes. A process scaled from zero is woken by an
 * event; the initial lists of its watches (every ImageDeploy and Deployment, decrypted and decoded) would take the
 * same two cores that event needs, so the event is served first from direct reads, as any event is until its
 * watch has synced. Past the first seconds of the process the gate is open and costs nothing.
 */
public final class ColdStartGate {

    static final long LONGEST_MILLIS = 2_000;

    private static final CountDownLatch FIRST_EVENT = new CountDownLatch(1);
    private static final long OPENS_AT = ProcessHandle.current().info().startInstant().orElseGet(Instant::now)
            .toEpochMilli() + LONGEST_MILLIS;

    private ColdStartGate() {
    }

    /** The process has answered an event: background work may start. */
    public static void eventAnswered() {
        FIRST_EVENT.countDown();
    }

    /** Waits until the gate is open; returns at once when it is. */
    public static void awaitOpen() {
        long left = OPENS_AT - System.currentTimeMillis();
        if (left <= 0 || FIRST_EVENT.getCount() == 0) {
            return;
        }
        try {
            FIRST_EVENT.await(left, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
