package dev.rekon.resync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.Reconciler;

/** A resync pass submits its keys to the loop's queue and waits: keys in parallel, each alone, counted in order. */
class AreaPassTest {

    record Done(Reply reply) implements Reconciler.Plan {
    }

    /** Loads wait at a barrier of {@code together} keys: a pass that runs keys one after the other never passes it. */
    static final class Area implements Reconciler<String, String, Done> {
        final CyclicBarrier together;
        final AtomicInteger onShop = new AtomicInteger();
        final AtomicInteger mostOnShop = new AtomicInteger();

        Area(int together) {
            this.together = new CyclicBarrier(together);
        }

        @Override
        public ObjectRef subject(String key) {
            return new ObjectRef("v1", "ConfigMap", "team", key.split(":")[0]);
        }

        @Override
        public Optional<String> load(String key, boolean fresh) {
            if (key.startsWith("shop")) {
                mostOnShop.accumulateAndGet(onShop.incrementAndGet(), Math::max);
                sleep();
                onShop.decrementAndGet();
            } else {
                try {
                    together.await(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new TransientFailureException("keys ran one after the other", e);
                }
            }
            if (key.equals("down")) {
                throw new TransientFailureException("apiserver away", null);
            }
            if (key.equals("broken")) {
                throw new IllegalArgumentException("Comparison method violates its general contract!");
            }
            return Optional.of(key);
        }

        @Override
        public Reply gone(String key) {
            return Reply.unchanged("Gone", key, List.of());
        }

        @Override
        public Done plan(String views) {
            return new Done(Reply.unchanged("InSync", views, List.of(subject(views))));
        }

        @Override
        public void apply(Done plan) {
        }

        private static void sleep() {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static ReconcileLoop loop() {
        return ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("team")), 4);
    }

    @Test
    void aPassRunsItsKeysInParallelAndCountsThemInTheirOrder() {
        Area area = new Area(4);
        AreaTally tally = new AreaTally("test");
        List<String> keys = List.of("a", "b", "c", "down");
        AreaPass.run(loop(), area, keys, ResyncScope.all(), tally);
        AreaResult result = tally.result();
        assertEquals(4, result.checked(), result.toString());
        assertEquals(3, result.unchanged(), result.toString());
        assertEquals(1, result.failed(), "the transient failure of one key is counted, the others are done");
        assertEquals("down", result.objects().get(0).object().name());
    }

    @Test
    void aKeyThatFailsUnexpectedlyIsCountedAndTheOthersStill() {
        Area area = new Area(4);
        AreaTally tally = new AreaTally("test");
        AreaPass.run(loop(), area, List.of("broken", "a", "b", "c"), ResyncScope.all(), tally);
        AreaResult result = tally.result();
        assertEquals(4, result.checked(), result.toString());
        assertEquals(3, result.unchanged(), result.toString());
        assertEquals(1, result.failed(), result.toString());
        assertEquals("InternalError", result.objects().get(0).reason(), result.toString());
    }

    @Test
    void aKeyOfThePassAndAnEventOnTheSameObjectNeverRunAtOnce() throws Exception {
        Area area = new Area(1);
        ReconcileLoop loop = loop();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            keys.add("shop:pass-" + i);
        }
        Thread events = new Thread(() -> {
            for (int i = 0; i < 10; i++) {
                loop.reconcile(area, "shop:event-" + i);
            }
        });
        events.start();
        AreaPass.run(loop, area, keys, ResyncScope.all(), new AreaTally("test"));
        events.join(10_000);
        assertEquals(1, area.mostOnShop.get(), "one thread at a time on shop");
    }

    @Test
    void aFailedListingOfTheKeysIsCountedOnceAndThePassGoesOn() {
        AreaTally tally = new AreaTally("test");
        Optional<List<String>> down = AreaPass.listed(tally, "ReadFailed", "the things", () -> {
            throw new TransientFailureException("apiserver away", null);
        });
        Optional<List<String>> refused = AreaPass.listed(tally, "ReadFailed", "the others", () -> {
            throw new RefusedException(403, null, "forbidden", null);
        });
        assertTrue(down.isEmpty());
        assertTrue(refused.isEmpty());
        AreaResult result = tally.result();
        assertEquals(2, result.failed(), result.toString());
        assertEquals("could not read the things: apiserver away", result.objects().get(0).message());
        assertEquals(Optional.of(List.of("x")), AreaPass.listed(tally, "ReadFailed", "more", () -> List.of("x")));
    }
}
