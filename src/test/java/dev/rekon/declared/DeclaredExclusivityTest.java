package dev.rekon.declared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.declared.plan.DeclaredViews;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;

/**
 * One DeclaredState is worked by one thread at a time, whatever the input: its events, pushes to its branch
 * (carrying a pass's or a push's tips) and the resync pass's key (scanning for orphans) all run on the loop's work
 * queue under the DeclaredState's identity, while different DeclaredStates still run in parallel.
 */
class DeclaredExclusivityTest {

    /** Records, per DeclaredState, how many attempts read it at once, and the most at once across them all. */
    static final class OverlapRecorder extends DeclaredStateReconciler {
        final Map<ObjectRef, AtomicInteger> inside = new ConcurrentHashMap<>();
        final Map<ObjectRef, Integer> mostAtOnce = new ConcurrentHashMap<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostRunning = new AtomicInteger();

        @Override
        public Optional<DeclaredViews> load(DeclaredKey key, boolean fresh) {
            int now = inside.computeIfAbsent(key.ref(), r -> new AtomicInteger()).incrementAndGet();
            mostAtOnce.merge(key.ref(), now, Math::max);
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
                inside.get(key.ref()).decrementAndGet();
            }
            return Optional.empty();
        }

        @Override
        public Reply gone(DeclaredKey key) {
            return Reply.unchanged("DeclaredStateNotFound", "gone", List.of(key.ref()));
        }
    }

    @Test
    void eventsPushesAndThePassOfOneDeclaredStateNeverRunAtOnce() throws Exception {
        OverlapRecorder reconciler = new OverlapRecorder();
        DeclaredStateService service = new DeclaredStateService();
        service.reconciler = reconciler;
        service.loop = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("*")), 4);
        TipMemo passTips = TipMemo.perInput();
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (String name : List.of("apps", "infra")) {
                all.add(CompletableFuture.runAsync(() -> service.changed("team-a", name)));
                all.add(CompletableFuture.runAsync(
                        () -> service.reconcile(new DeclaredKey("team-a", name, false, TipMemo.perInput()))));
                all.add(service.loop.submitPass(reconciler, new DeclaredKey("team-a", name, true, passTips), true));
            }
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        ObjectRef apps = new DeclaredKey("team-a", "apps", false).ref();
        ObjectRef infra = new DeclaredKey("team-a", "infra", false).ref();
        assertEquals(Map.of(apps, 1, infra, 1), reconciler.mostAtOnce,
                "an event, a push and the pass of one DeclaredState each waited for the other");
        assertTrue(reconciler.mostRunning.get() >= 2, "two DeclaredStates still ran in parallel");
    }
}
