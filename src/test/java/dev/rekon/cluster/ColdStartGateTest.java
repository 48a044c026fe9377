package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/**
 * The gate holds background work until the process has answered an event, or until its deadline (moved to the
 * application's start, held while an event is being handled). Each case uses
 * a gate of its own whose deadline is far away or past, so none can pass because the process's own gate opened by
 * itself 2 s after start.
 */
class ColdStartGateTest {

    static final long HOUR = 3_600_000;

    @Test
    void aFreshGateHoldsUntilAnEventIsAnswered() throws Exception {
        ColdStartGate gate = new ColdStartGate(System.currentTimeMillis() + HOUR);
        assertFalse(gate.open());
        assertFalse(gate.await(100), "no event, deadline an hour away: still closed");
        assertHeldUntilAnswered(gate);
    }

    @Test
    void theApplicationsStartMovesThePassedDeadlineOfTheProcessStart() {
        long now = System.currentTimeMillis();
        ColdStartGate gate = new ColdStartGate(now - 1);
        assertTrue(gate.open(), "the deadline from the process's start has passed");
        gate.startedAt(now);
        assertFalse(gate.open(), "a slow start of the application gets its own " + ColdStartGate.LONGEST_MILLIS + " ms");
        assertFalse(gate.await(100));
        gate.answered();
        assertTimeoutPreemptively(Duration.ofMillis(500), () -> assertTrue(gate.await(HOUR)));
    }

    @Test
    void anEventBeingHandledAtTheDeadlineHoldsTheGateUntilItIsAnswered() throws Exception {
        ColdStartGate gate = new ColdStartGate(System.currentTimeMillis() - 1);
        gate.receivedEvent();
        assertFalse(gate.open(), "past the deadline, but the first event is still being handled");
        assertHeldUntilAnswered(gate);
    }

    /** A waiter is held (longer than a waiter's recheck of the clock) until the gate hears of an answered event. */
    private static void assertHeldUntilAnswered(ColdStartGate gate) throws Exception {
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> gate.await(HOUR));
        Thread.sleep(250);
        assertFalse(waiting.isDone(), "a waiter is held");
        gate.answered();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertTrue(waiting.get()));
    }

    @Test
    void anEventThatIsNeverAnsweredHoldsTheGateABoundedTime() {
        ColdStartGate gate = new ColdStartGate(System.currentTimeMillis() - ColdStartGate.HOLD_MILLIS - 1);
        gate.receivedEvent();
        assertTrue(gate.open(), "held at most " + ColdStartGate.HOLD_MILLIS + " ms past the deadline");
    }

    @Test
    void aGatePastItsDeadlineIsOpenWithoutAnEvent() {
        ColdStartGate gate = new ColdStartGate(System.currentTimeMillis() - 1);
        assertTrue(gate.open());
        assertTimeoutPreemptively(Duration.ofMillis(500), () -> assertTrue(gate.await(HOUR)));
    }

    @Test
    void aReaderWaitingForTheWatchesOpensTheGateEvenWhileAnEventIsHandled() {
        ColdStartGate gate = new ColdStartGate(System.currentTimeMillis() + HOUR);
        gate.receivedEvent();
        assertFalse(gate.open());
        gate.needed();
        assertTrue(gate.open(), "the watches a resync or the status page waits for must not wait behind it");
    }
}
