package dev.rekon.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.core.TransientFailureException;

/**
 * The keyed work queue every path goes through: one thread per key at a time, a key arriving again while pending
 * runs once with the newest input, different keys in parallel up to the bound, and a reschedule after a delay.
 */
class WorkQueueTest {

    final WorkQueue queue = new WorkQueue(4);

    @AfterEach
    void close() {
        queue.close();
    }

    /** Work that notes how many run at once, overall and for its key. */
    static final class Overlap {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();

        String run(String input) {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            return input;
        }
    }

    @Test
    void aKeyIsWorkedByOneThreadAtATimeWhateverTheKindOfWork() throws Exception {
        Overlap sameKey = new Overlap();
        List<CompletableFuture<String>> done = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            done.add(queue.submit("team/shop", "kind-" + (i % 3), "input-" + i, WorkQueue.repeated(), sameKey::run));
        }
        for (CompletableFuture<String> d : done) {
            d.get(10, TimeUnit.SECONDS);
        }
        assertEquals(1, sameKey.most.get(), "never two threads on one key");
    }

    @Test
    void differentKeysRunInParallelUpToTheBound() throws Exception {
        Overlap keys = new Overlap();
        List<CompletableFuture<String>> done = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            done.add(queue.submit("team/k" + i, "kind", "x", WorkQueue.repeated(), keys::run));
        }
        for (CompletableFuture<String> d : done) {
            d.get(10, TimeUnit.SECONDS);
        }
        assertEquals(4, keys.most.get(), "as many keys at once as the bound, no more");
        assertEquals(4, queue.parallelism());
    }

    @Test
    void aKeyArrivingAgainWhilePendingRunsOnceWithTheNewestInput() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<String> first = queue.submit("team/shop", "status", "a", WorkQueue.newest(), in -> {
            ran.add(in);
            blocked.countDown();
            await(release);
            return in;
        });
        assertTrue(blocked.await(5, TimeUnit.SECONDS));
        CompletableFuture<String> b = queue.submit("team/shop", "status", "b", WorkQueue.newest(), in -> record(ran, in));
        CompletableFuture<String> c = queue.submit("team/shop", "status", "c", WorkQueue.newest(), in -> record(ran, in));
        release.countDown();
        assertEquals("a", first.get(5, TimeUnit.SECONDS));
        assertEquals("c", b.get(5, TimeUnit.SECONDS), "b's caller gets the answer of the one run");
        assertEquals("c", c.get(5, TimeUnit.SECONDS));
        assertEquals(List.of("a", "c"), ran, "b was pending when c came: one run, with c");
    }

    @Test
    void inputsTheAreaCannotMergeRunOneAfterTheOther() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        queue.submit("team/shop", "event", "a", WorkQueue.repeated(), in -> {
            blocked.countDown();
            await(release);
            return record(ran, in);
        });
        assertTrue(blocked.await(5, TimeUnit.SECONDS));
        CompletableFuture<String> b = queue.submit("team/shop", "event", "b", WorkQueue.repeated(), in -> record(ran, in));
        CompletableFuture<String> b2 = queue.submit("team/shop", "event", "b", WorkQueue.repeated(), in -> record(ran, in));
        CompletableFuture<String> c = queue.submit("team/shop", "event", "c", WorkQueue.repeated(), in -> record(ran, in));
        release.countDown();
        c.get(5, TimeUnit.SECONDS);
        b.get(5, TimeUnit.SECONDS);
        b2.get(5, TimeUnit.SECONDS);
        assertEquals(List.of("a", "b", "c"), ran, "the repeated b ran once; c, a different input, after it");
    }

    @Test
    void theCallerOfRunGetsTheResultOrTheFailureAsThrown() {
        assertEquals("x", queue.run("team/shop", "event", "x", WorkQueue.repeated(), in -> in));
        TransientFailureException e = assertThrows(TransientFailureException.class, () -> queue.run("team/shop",
                "event", "x", WorkQueue.repeated(), in -> {
                    throw new TransientFailureException("apiserver away", null);
                }));
        assertEquals("apiserver away", e.getMessage());
    }

    @Test
    void workSubmittedFromInsideWorkRunsOnTheSameThreadSoNoBoundDeadlocks() throws Exception {
        List<CompletableFuture<String>> done = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String outer = "team/outer-" + i;
            done.add(queue.submit(outer, "event", outer, WorkQueue.repeated(),
                    in -> queue.run(in, "event", in + "/again", WorkQueue.repeated(),
                            again -> queue.run("team/inner", "event", again, WorkQueue.repeated(), inner -> inner))));
        }
        for (int i = 0; i < 8; i++) {
            assertEquals("team/outer-" + i + "/again", done.get(i).get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aRescheduleRunsAfterItsDelayAndMergesWithOneAlreadyWaiting() throws Exception {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        queue.after("team/shop", "again", Duration.ofMillis(300), Duration.ZERO, "a", in -> record(ran, in));
        queue.after("team/shop", "again", Duration.ofMillis(300), Duration.ZERO, "b", in -> record(ran, in));
        assertTrue(queue.awaitIdle(k -> true, Duration.ofSeconds(5)));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300), "not before its delay");
        assertEquals(List.of("b"), ran, "one run, with the newest input, at the first one's time");
    }

    @Test
    void aRescheduleAskedSoonerThanOneWaitingMovesItEarlier() throws Exception {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        queue.after("team/shop", "again", Duration.ofMinutes(5), Duration.ZERO, "late", in -> record(ran, in));
        queue.after("team/shop", "again", Duration.ofMillis(100), Duration.ZERO, "soon", in -> record(ran, in));
        assertTrue(queue.dueIn("team/shop").orElseThrow().compareTo(Duration.ofMillis(100)) <= 0);
        assertTrue(queue.awaitIdle(k -> true, Duration.ofSeconds(5)), "not held back by the earlier, later time");
        assertEquals(List.of("soon"), ran);
        assertTrue(queue.dueIn("team/shop").isEmpty());
    }

    @Test
    void aSpacedRescheduleRunsAtOnceWhenQuietThenAtMostOncePerSpacing() throws Exception {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        Duration spacing = Duration.ofSeconds(2);
        queue.after("team/shop", "status", Duration.ZERO, spacing, "shop:a", in -> record(ran, in));
        assertTrue(queue.awaitIdle(k -> true, Duration.ofSeconds(5)));
        queue.after("team/shop", "status", Duration.ZERO, spacing, "shop:b", in -> record(ran, in));
        queue.after("team/shop", "status", Duration.ZERO, spacing, "shop:c", in -> record(ran, in));
        queue.after("team/cart", "status", Duration.ZERO, spacing, "cart:d", in -> record(ran, in));
        for (int i = 0; i < 500 && ran.size() < 2; i++) {
            Thread.sleep(10);
        }
        assertEquals(List.of("shop:a", "cart:d"), ran, "another key does not wait for shop's spacing");
        assertTrue(queue.awaitIdle(k -> true, Duration.ofSeconds(5)));
        assertEquals(List.of("shop:a", "cart:d", "shop:c"), ran);
    }

    @Test
    void submittedWorkSomeoneWaitsOnRunsBeforeBackgroundWorkThatCameDue() throws Exception {
        WorkQueue one = new WorkQueue(1);
        try {
            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            one.submit("team/busy", "pass", "busy", WorkQueue.repeated(), in -> {
                blocked.countDown();
                await(release);
                return in;
            });
            await(blocked);
            // A rollout's status pass comes due while a resync pass's keys still wait: the pass's caller waits on
            // its keys, nobody on the status, which a pass writes after its keys (the pass's reply) are done.
            one.after("team/a", "status", Duration.ZERO, Duration.ZERO, "status-a", in -> record(ran, in));
            one.after("team/b", "status", Duration.ZERO, Duration.ZERO, "status-b", in -> record(ran, in));
            CompletableFuture<String> c = one.submit("team/c", "pass", "pass-c", WorkQueue.repeated(),
                    in -> record(ran, in));
            CompletableFuture<String> d = one.submit("team/d", "pass", "pass-d", WorkQueue.repeated(),
                    in -> record(ran, in));
            release.countDown();
            c.get(5, TimeUnit.SECONDS);
            d.get(5, TimeUnit.SECONDS);
            assertTrue(one.awaitIdle(k -> true, Duration.ofSeconds(5)));
            assertEquals(List.of("pass-c", "pass-d", "status-a", "status-b"), ran);
        } finally {
            one.close();
        }
    }

    @Test
    void whatWaitsForItsTimeCanBeRunNow() {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        queue.after("team/shop", "status", Duration.ofMinutes(5), Duration.ZERO, "a", in -> record(ran, in));
        queue.after("team/shop", "other", Duration.ofMinutes(5), Duration.ZERO, "b", in -> record(ran, in));
        queue.runWaitingNow("status"::equals, Duration.ofSeconds(5));
        assertEquals(List.of("a"), ran);
    }

    @Test
    void workWaitingOutItsSpacingIsHastenedOnlyWhenItCoversWhatIsAsked() throws InterruptedException {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        queue.after("team/shop", "status", Duration.ofMinutes(5), Duration.ZERO, "rollout", in -> record(ran, in));
        queue.after("team/cart", "status", Duration.ofMinutes(5), Duration.ZERO, "push", in -> record(ran, in));
        assertFalse(queue.hasten("team/cart", "status", "rollout"::equals), "a push's pass does not cover it");
        assertFalse(queue.hasten("team/shop", "other", in -> true), "no work of that kind waits");
        assertFalse(queue.hasten("team/none", "status", in -> true), "nothing waits on that key");
        assertTrue(queue.hasten("team/shop", "status", "rollout"::equals));
        for (int i = 0; i < 500 && ran.isEmpty(); i++) {
            Thread.sleep(10);
        }
        assertEquals(List.of("rollout"), ran, "run now, not after its 5 minutes; the push's still waits");
        assertTrue(queue.dueIn("team/cart").isPresent());
    }

    @Test
    void workThatWaitsItsTurnCoversWhatIsAskedWithoutBeingQueuedTwice() throws Exception {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        try (HeldKey held = HeldKey.hold(queue, "team/shop")) {
            queue.after("team/shop", "status", Duration.ZERO, Duration.ZERO, "rollout", in -> record(ran, in));
            assertTrue(queue.hasten("team/shop", "status", "rollout"::equals), "it waits for the key, due already");
        }
        assertTrue(queue.awaitIdle(k -> true, Duration.ofSeconds(5)));
        assertEquals(List.of("rollout"), ran);
    }

    @Test
    void workTakenBackNeverRunsAndItsCallerIsAnswered() throws Exception {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<?> turn;
        CompletableFuture<?> time;
        try (HeldKey held = HeldKey.hold(queue, "team/shop")) {
            turn = queue.after("team/shop", "follow", Duration.ZERO, Duration.ZERO, "its turn", in -> record(ran, in));
            time = queue.after("team/cart", "follow", Duration.ofMinutes(5), Duration.ZERO, "its time",
                    in -> record(ran, in));
            queue.after("team/shop", "status", Duration.ZERO, Duration.ZERO, "status", in -> record(ran, in));
            assertTrue(queue.withdraw("team/shop", "follow"), "waiting for the key");
            assertTrue(queue.withdraw("team/cart", "follow"), "waiting for its time");
            assertFalse(queue.withdraw("team/shop", "follow"), "taken back already");
        }
        assertTrue(queue.awaitIdle(k -> true, Duration.ofSeconds(5)));
        assertEquals(List.of("status"), ran, "only the work of the other kind ran");
        assertNull(turn.get(1, TimeUnit.SECONDS));
        assertNull(time.get(1, TimeUnit.SECONDS));
        assertTrue(queue.dueIn("team/cart").isEmpty());
    }

    private static String record(List<String> ran, String in) {
        ran.add(in);
        return in;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
