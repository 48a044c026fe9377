package dev.rekon.cluster;

import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.runtime.StartupEvent;

/**
 * Decides when a fresh process may begin filling its watch caches: once it has answered its first event, or
 * {@value #LONGEST_MILLIS} ms after the application started (Quarkus' start done, HTTP served) when no event came;
 * in a process without the application (a unit test), {@value #LONGEST_MILLIS} ms after the process started.
 * A process scaled from zero is woken by an event; the initial lists of its watches (every ImageDeploy and
 * Deployment, decrypted and decoded) and the start-up pass would take the same two cores that event needs, so the
 * event is served first from direct reads, as any event is until its watch has synced. In the application the
 * deadline counts from its start, not the process's: a JVM without an AOT cache can spend more than 2 s in Quarkus'
 * start, and a deadline from the process's start opened the gate before the first event could even arrive. An event
 * being handled when the deadline passes holds the gate until it is answered, at most {@value #HOLD_MILLIS} ms longer,
 * unless it waits for the watches themselves ({@link #watchesNeeded}).
 * Past the first seconds of the process the gate is open and costs nothing.
 */
public final class ColdStartGate {

    static final long LONGEST_MILLIS = 2_000;
    static final long HOLD_MILLIS = 10_000;
    /** How often a waiter looks at the clock again: the deadline moves when the application starts. */
    private static final long RECHECK_MILLIS = 100;

    private static final ColdStartGate PROCESS = new ColdStartGate(ProcessHandle.current().info().startInstant()
            .orElseGet(Instant::now).toEpochMilli() + LONGEST_MILLIS);

    private final CountDownLatch firstEvent = new CountDownLatch(1);
    private volatile long opensAt;
    private volatile boolean received;

    /** A gate that opens by itself at {@code opensAtMillis} (epoch milliseconds) unless an event opens it first. */
    ColdStartGate(long opensAtMillis) {
        this.opensAt = opensAtMillis;
    }

    /**
     * Sets the process's deadline anew once the application has started, before any other start-up observer (the
     * start-up pass waits on the gate from one).
     */
    @ApplicationScoped
    static class Started {
        void started(@Observes @Priority(1) StartupEvent event) {
            PROCESS.startedAt(System.currentTimeMillis());
        }
    }

    /** The process has received an event: a deadline passing while it is handled does not open the gate. */
    public static void eventReceived() {
        PROCESS.receivedEvent();
    }

    /** The process has answered an event: background work may start. */
    public static void eventAnswered() {
        PROCESS.answered();
    }

    /**
     * A reader off the event path waits for a watch to sync (a resync pass, the status page): it cannot be served by
     * direct reads, so the watches start now. Without this, such a request as the process's first event held the
     * gate that its own watches wait behind, and timed out.
     */
    public static void watchesNeeded() {
        PROCESS.needed();
    }

    /** Waits until the process's gate is open; returns at once when it is. */
    public static void awaitOpen() {
        PROCESS.await(Long.MAX_VALUE);
    }

    void startedAt(long nowMillis) {
        opensAt = nowMillis + LONGEST_MILLIS;
    }

    void receivedEvent() {
        if (!received) {
            received = true;
        }
    }

    void answered() {
        firstEvent.countDown();
    }

    void needed() {
        firstEvent.countDown();
    }

    boolean open() {
        if (firstEvent.getCount() == 0) {
            return true;
        }
        return System.currentTimeMillis() >= (received ? opensAt + HOLD_MILLIS : opensAt);
    }

    /** Waits until the gate opens, at most {@code maxMillis}; answers whether it is open. */
    boolean await(long maxMillis) {
        long now = System.currentTimeMillis();
        long until = maxMillis >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + maxMillis;
        while (!open() && now < until) {
            try {
                firstEvent.await(Math.min(RECHECK_MILLIS, until - now), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            now = System.currentTimeMillis();
        }
        return open();
    }
}
