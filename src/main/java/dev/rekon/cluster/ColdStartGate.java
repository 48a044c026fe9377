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

    private static final ColdStartGate PROCESS = new ColdStartGate(ProcessHandle.current().info().startInstant()
            .orElseGet(Instant::now).toEpochMilli() + LONGEST_MILLIS);

    private final CountDownLatch firstEvent = new CountDownLatch(1);
    private final long opensAt;

    /** A gate that opens by itself at {@code opensAtMillis} (epoch milliseconds) unless an event opens it first. */
    ColdStartGate(long opensAtMillis) {
        this.opensAt = opensAtMillis;
    }

    /** The process has answered an event: background work may start. */
    public static void eventAnswered() {
        PROCESS.answered();
    }

    /** Waits until the process's gate is open; returns at once when it is. */
    public static void awaitOpen() {
        PROCESS.await(Long.MAX_VALUE);
    }

    void answered() {
        firstEvent.countDown();
    }

    boolean open() {
        return firstEvent.getCount() == 0 || System.currentTimeMillis() >= opensAt;
    }

    /** Waits until the gate opens, at most {@code maxMillis}; answers whether it is open. */
    boolean await(long maxMillis) {
        long left = Math.min(maxMillis, opensAt - System.currentTimeMillis());
        if (left > 0 && firstEvent.getCount() > 0) {
            try {
                firstEvent.await(left, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return open();
    }
}
