package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/**
 * The gate holds background work until the process has answered an event, or until its deadline. Each case uses
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
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> gate.await(HOUR));
        Thread.sleep(50);
        assertFalse(waiting.isDone(), "a waiter is held");
        gate.answered();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertTrue(waiting.get()));
    }

    @Test
    void aGatePastItsDeadlineIsOpenWithoutAnEvent() {
        ColdStartGate gate = new ColdStartGate(System.currentTimeMillis() - 1);
        assertTrue(gate.open());
        assertTimeoutPreemptively(Duration.ofMillis(500), () -> assertTrue(gate.await(HOUR)));
    }
}
