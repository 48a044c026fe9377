package dev.rekon.declared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;

/**
 * The orphan scan one input shares: every kind listed once for all its DeclaredStates, and the workers of a pass
 * list different kinds at the same time instead of queueing behind the one listing the first kind (a slow list, a
 * 429 answered after its Retry-After, held every worker of the pass).
 */
class TipMemoScanTest {

    static final ObjectRef A = new ObjectRef("v1", "ConfigMap", null, "");
    static final ObjectRef B = new ObjectRef("v1", "Secret", null, "");
    static final ObjectRef C = new ObjectRef("apps/v1", "Deployment", null, "");

    static LiveObject object(ObjectRef kind) {
        return new LiveObject(new ObjectRef(kind.apiVersion(), kind.kind(), "ns", "x"), null, null);
    }

    @Test
    void aSecondWorkerListsTheKindsNobodyListsWhileTheFirstWaitsForItsList() throws Exception {
        TipMemo memo = TipMemo.perInput();
        CountDownLatch aStarted = new CountDownLatch(1);
        CountDownLatch releaseA = new CountDownLatch(1);
        Map<ObjectRef, AtomicInteger> lists = new ConcurrentHashMap<>();
        Function<ObjectRef, List<LiveObject>> lister = kind -> {
            lists.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
            if (kind.equals(A)) {
                aStarted.countDown();
                try {
                    releaseA.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return List.of(object(kind));
        };
        Thread first = new Thread(() -> memo.scan(null, List.of(A, B, C), lister));
        first.start();
        assertTrue(aStarted.await(10, TimeUnit.SECONDS));

        Thread second = new Thread(() -> memo.scan(null, List.of(A, B, C), lister));
        second.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!(lists.containsKey(B) && lists.containsKey(C)) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(lists.containsKey(B) && lists.containsKey(C), "the second worker lists B and C while A's list is"
                + " still out, instead of waiting for it first: " + lists.keySet());
        releaseA.countDown();
        first.join(10_000);
        second.join(10_000);

        Map<ObjectRef, List<LiveObject>> all = memo.scan(null, List.of(C, A, B), lister);
        assertEquals(List.of(C, A, B), List.copyOf(all.keySet()), "in the order asked");
        lists.forEach((kind, n) -> assertEquals(1, n.get(), kind + " listed once for the input"));
        assertEquals(3, lists.size());
    }

    @Test
    void aFailedListIsEveryCallersFailureAndIsNotListedAgain() {
        TipMemo memo = TipMemo.perInput();
        AtomicInteger lists = new AtomicInteger();
        Function<ObjectRef, List<LiveObject>> down = kind -> {
            lists.incrementAndGet();
            throw new dev.rekon.core.TransientFailureException("apiserver down", null);
        };
        for (int i = 0; i < 2; i++) {
            try {
                memo.scan(null, List.of(A), down);
                throw new AssertionError("a failed list fails the scan");
            } catch (dev.rekon.core.TransientFailureException expected) {
                // the same failure, not a second list
            }
        }
        assertEquals(1, lists.get());
    }
}
