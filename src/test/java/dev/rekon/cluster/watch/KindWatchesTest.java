package dev.rekon.cluster.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.Await;
import dev.rekon.testing.MovableClock;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** The watches of a kind under concurrent readers: no read waits for a watch, no watch is leaked, idle ones stop. */
class KindWatchesTest {

    private final ExecutorService readers = Executors.newFixedThreadPool(8);
    private final MovableClock clock = new MovableClock();

    @AfterEach
    void stop() {
        readers.shutdownNow();
    }

    @Test
    void aReadDoesNotWaitForTheWatchToSyncButIsAnsweredFromItOnceSynced() throws Exception {
        FakeInformers informers = new FakeInformers(-1);
        KindWatches<String> caches = new KindWatches<>("things", informers, KindWatchesTest::store);
        CompletableFuture<Object> first = CompletableFuture.supplyAsync(() -> caches.get("team"), readers);
        assertNull(first.get(2, TimeUnit.SECONDS), "no watch yet: the caller reads the apiserver");
        Await.until("the watch to start", Duration.ofSeconds(5), () -> informers.made.size() == 1);
        informers.made.get(0).synced.complete(null);
        Await.until("answers from the synced watch", Duration.ofSeconds(5), () -> caches.get("team") != null);
        assertEquals(1, informers.made.size(), "one watch for the key");
    }

    @Test
    void aWatchStillListingIsLoadingUntilItSyncs() throws Exception {
        FakeInformers informers = new FakeInformers(-1);
        KindWatches<String> caches = new KindWatches<>("things", informers, KindWatchesTest::store);
        assertFalse(caches.loading("team"), "no watch asked for: nothing loading");
        assertNull(caches.get("team", Duration.ofMillis(200)), "still listing after the bounded wait");
        assertTrue(caches.loading("team"), "so the status page says it is loading, not that there is nothing");
        Await.until("the watch to start", Duration.ofSeconds(5), () -> informers.made.size() == 1);
        informers.made.get(0).synced.complete(null);
        Await.until("synced", Duration.ofSeconds(5), () -> caches.get("team") != null);
        assertFalse(caches.loading("team"));
    }

    @Test
    void aWatchThatDoesNotSyncHoldsUpNoReadOfAnotherKey() throws Exception {
        FakeInformers informers = new FakeInformers(-1);
        KindWatches<String> caches = new KindWatches<>("things", informers, KindWatchesTest::store);
        readers.submit(() -> caches.get("slow"));
        Await.until("the slow watch to start", Duration.ofSeconds(5), () -> informers.made.size() == 1);
        CompletableFuture<Object> other = CompletableFuture.supplyAsync(() -> caches.get("other"), readers);
        assertNull(other.get(2, TimeUnit.SECONDS), "answered at once, while the slow key still lists");
    }

    @Test
    void readersRacingAStoppedWatchStartExactlyOneNewOneAndLeakNone() throws Exception {
        FakeInformers informers = new FakeInformers(1);
        informers.stoppedCheckMillis = 5;
        KindWatches<String> caches = new KindWatches<>("things", informers, KindWatchesTest::store);
        for (int round = 0; round < 20; round++) {
            Await.until("a synced watch", Duration.ofSeconds(20), () -> caches.get("team") != null);
            informers.running("team").forEach(m -> m.stopped.complete(null));
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<?>> all = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                all.add(CompletableFuture.runAsync(() -> {
                    await(go);
                    for (int j = 0; j < 3; j++) {
                        caches.get("team");
                    }
                }, readers));
            }
            go.countDown();
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            Await.until("the new watch to sync", Duration.ofSeconds(20), () -> caches.get("team") != null);
            assertEquals(1, informers.running("team").size(), "round " + round + ": watches left running");
        }
    }

    @Test
    void anIdleNamespaceWatchIsStoppedAndTheClusterWideOneKept() {
        FakeInformers informers = new FakeInformers(0);
        KindWatches<String> caches = new KindWatches<>("things", informers, KindWatchesTest::store,
                ScopeRules.BY_NAMESPACE, clock,
                Duration.ofMinutes(10));
        Await.until("both watches", Duration.ofSeconds(5),
                () -> caches.get("team") != null & caches.get(KindWatches.EVERYWHERE) != null);
        clock.advance(Duration.ofMinutes(11));
        caches.get("other");
        assertTrue(informers.running("team").isEmpty(), "the idle namespace's watch is stopped");
        assertEquals(1, informers.running(KindWatches.EVERYWHERE).size(), "the cluster-wide watch stays");
        Await.until("a new watch when the namespace is read again", Duration.ofSeconds(5),
                () -> caches.get("team") != null);
        assertEquals(1, informers.running("team").size());
    }

    @Test
    void aWatchThatCannotStartIsTriedAgainOnlyAfterThirtySeconds() {
        FakeInformers informers = new FakeInformers(-1);
        KindWatches<String> caches = new KindWatches<>("things", informers, KindWatchesTest::store,
                ScopeRules.BY_NAMESPACE, clock,
                Duration.ofMinutes(10));
        caches.get("team");
        Await.until("the watch to start", Duration.ofSeconds(5), () -> informers.made.size() == 1);
        informers.made.get(0).synced.completeExceptionally(new IllegalStateException("403 watch"));
        Await.until("the failure to be seen", Duration.ofSeconds(5), () -> informers.made.get(0).stopped.isDone());
        clock.advance(Duration.ofSeconds(10));
        assertNull(caches.get("team"));
        assertEquals(1, informers.made.size(), "not tried again within 30 s");
        clock.advance(Duration.ofSeconds(25));
        caches.get("team");
        Await.until("a second try", Duration.ofSeconds(5), () -> informers.made.size() == 2);
    }

    @Test
    void aWatchByNameRefusedIsTriedAgainAfterFifteenMinutesAnyOtherFailureAfterAMinuteAndNoneStopsWhenIdle() {
        FakeInformers informers = new FakeInformers(-1);
        KindWatches<String> named = new KindWatches<>("Secret", informers, KindWatchesTest::store,
                ScopeRules.BY_NAME, clock, Duration.ofMinutes(10));
        named.get("team/kubeconfig");
        triedAgainOnlyAfter(named, informers, 1, new KubernetesClientException("secrets is forbidden", 403, null),
                Duration.ofMinutes(15));
        triedAgainOnlyAfter(named, informers, 2, new KubernetesClientException("unavailable", 503, null),
                Duration.ofMinutes(1));
        informers.made.get(2).synced.complete(null);
        Await.until("synced", Duration.ofSeconds(5), () -> named.get("team/kubeconfig") != null);
        clock.advance(Duration.ofMinutes(11));
        named.get("team/other");
        assertEquals(1, informers.running("team/kubeconfig").size(), "a watch by name is kept while idle");
    }

    /** Fails start {@code tries} with {@code error}: none is tried again before {@code retry} has passed, then one. */
    private void triedAgainOnlyAfter(KindWatches<String> named, FakeInformers informers, int tries, Exception error,
            Duration retry) {
        Await.until("start " + tries, Duration.ofSeconds(5), () -> informers.made.size() == tries);
        informers.made.get(tries - 1).synced.completeExceptionally(error);
        Await.until("the failure to be seen", Duration.ofSeconds(5),
                () -> informers.made.get(tries - 1).stopped.isDone());
        clock.advance(retry.minusSeconds(1));
        assertNull(named.get("team/kubeconfig"));
        assertEquals(tries, informers.made.size(), "not tried again within " + retry + " of: " + error.getMessage());
        clock.advance(Duration.ofSeconds(1));
        named.get("team/kubeconfig");
        Await.until("tried again after " + retry, Duration.ofSeconds(5), () -> informers.made.size() == tries + 1);
    }

    private static ViewStore<String> store() {
        return new ViewStore<>(o -> o.getMetadata().getName(), name -> List.of());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
