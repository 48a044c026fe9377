package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.cluster.KubeErrors.PermanentApiException;
import dev.rekon.core.TransientFailureException;

/** What the status report queue guarantees: the latest report always runs, bursts coalesce, nothing applied is lost. */
class StatusReportQueueTest {

    private final List<String> written = Collections.synchronizedList(new ArrayList<>());
    private StatusReportQueue queue;

    @AfterEach
    void stop() {
        queue.shutdown(Duration.ofSeconds(1));
    }

    private StatusReportQueue.Report writes(String what) {
        return () -> written.add(what);
    }

    @Test
    void aBurstForOneKeyBecomesAtMostTwoWritesEndingWithTheLatest() {
        queue = new StatusReportQueue(Duration.ofSeconds(1), 2);
        for (int i = 1; i <= 20; i++) {
            queue.submit("team/shop", writes("build " + i), true);
        }
        assertTrue(queue.awaitIdle(Duration.ofSeconds(10)));
        assertTrue(written.size() <= 2, "written: " + written);
        assertEquals("build 20", written.get(written.size() - 1));
    }

    @Test
    void anAppliedReportIsWrittenBeforeALaterOneThatAppliedNothing() throws Exception {
        queue = new StatusReportQueue(Duration.ofMillis(300), 2);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        queue.submit("team/shop", () -> {
            running.countDown();
            await(release);
            written.add("first");
        }, true);
        assertTrue(running.await(5, TimeUnit.SECONDS));
        queue.submit("team/shop", writes("build 2 applied"), true);
        queue.submit("team/shop", writes("late build 1: older, nothing applied"), false);
        release.countDown();
        assertTrue(queue.awaitIdle(Duration.ofSeconds(10)));
        assertEquals(List.of("first", "build 2 applied", "late build 1: older, nothing applied"), written);
    }

    @Test
    void keysDoNotWaitForEachOther() {
        queue = new StatusReportQueue(Duration.ofSeconds(30), 2);
        queue.submit("team/a", writes("a"), true);
        queue.submit("team/b", writes("b"), true);
        assertTrue(queue.awaitIdle(Duration.ofSeconds(10)), "two keys, one write each, no interval to wait");
        assertEquals(2, written.size());
    }

    @Test
    void aTransientFailureIsTriedAgainUntilItIsWritten() {
        queue = new StatusReportQueue(Duration.ofMillis(10), 2);
        AtomicInteger attempts = new AtomicInteger();
        queue.submit("team/shop", () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new TransientFailureException("apiserver down", null);
            }
            written.add("written");
        }, true);
        assertTrue(queue.awaitIdle(Duration.ofSeconds(10)));
        assertEquals(3, attempts.get());
        assertEquals(List.of("written"), written);
    }

    @Test
    void aNewerReportTakesThePlaceOfOneBeingRetried() throws Exception {
        queue = new StatusReportQueue(Duration.ofMillis(10), 2);
        CountDownLatch failed = new CountDownLatch(1);
        AtomicInteger oldAttempts = new AtomicInteger();
        queue.submit("team/shop", () -> {
            oldAttempts.incrementAndGet();
            failed.countDown();
            throw new TransientFailureException("apiserver down", null);
        }, false);
        assertTrue(failed.await(5, TimeUnit.SECONDS));
        queue.submit("team/shop", writes("newer"), false);
        assertTrue(queue.awaitIdle(Duration.ofSeconds(10)));
        assertEquals(List.of("newer"), written);
        assertEquals(1, oldAttempts.get(), "the older report was replaced, not retried");
    }

    @Test
    void aPermanentRefusalIsNotRetried() {
        queue = new StatusReportQueue(Duration.ofMillis(10), 2);
        AtomicInteger attempts = new AtomicInteger();
        queue.submit("team/shop", () -> {
            attempts.incrementAndGet();
            throw new PermanentApiException(403, "updating the status: 403 Forbidden", null);
        }, true);
        assertTrue(queue.awaitIdle(Duration.ofSeconds(10)));
        assertEquals(1, attempts.get());
    }

    @Test
    void shutdownWritesWhatWaitsWithoutWaitingOutTheInterval() {
        queue = new StatusReportQueue(Duration.ofSeconds(60), 2);
        queue.submit("team/shop", writes("build 1"), true);
        assertTrue(queue.awaitIdle(Duration.ofSeconds(10)));
        queue.submit("team/shop", writes("build 2"), true);
        long start = System.nanoTime();
        queue.shutdown(Duration.ofSeconds(5));
        assertEquals(List.of("build 1", "build 2"), written);
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "did not wait for the 60 s interval");
    }

    @Test
    void forgettingIdleKeysNeverLeavesAKeyWithTwoSlots() throws Exception {
        // Two held keys at most: every submit past them forgets idle slots, racing the submits of other threads.
        // A key with two slots shows as two writes of it closer together than the interval (50 ms; 25 allows for
        // the millisecond clock and a writer thread the machine holds up between taking a report and writing it).
        queue = new StatusReportQueue(Duration.ofMillis(50), 2, 2);
        Map<String, Long> lastWrite = new ConcurrentHashMap<>();
        AtomicInteger tooSoon = new AtomicInteger();
        ExecutorService submitters = Executors.newFixedThreadPool(6);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        for (int t = 0; t < 6; t++) {
            submitters.submit(() -> {
                for (int i = 0; System.nanoTime() < end; i++) {
                    String key = "team/app-" + (i % 100);
                    queue.submit(key, () -> {
                        long now = System.nanoTime();
                        Long before = lastWrite.put(key, now);
                        if (before != null && now - before < TimeUnit.MILLISECONDS.toNanos(25)) {
                            tooSoon.incrementAndGet();
                        }
                    }, false);
                }
            });
        }
        submitters.shutdown();
        assertTrue(submitters.awaitTermination(60, TimeUnit.SECONDS));
        assertTrue(queue.awaitIdle(Duration.ofSeconds(20)));
        assertEquals(0, tooSoon.get(), "writes of one key closer than the interval: the key had two slots");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
