package dev.rekon.pipeline;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A key of a {@link WorkQueue} held by work that runs until released, as an event's reply holds its key: what is
 * queued for the key meanwhile waits its turn.
 */
public final class HeldKey implements AutoCloseable {

    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<String> work;

    private HeldKey(WorkQueue queue, Object key) {
        CountDownLatch held = new CountDownLatch(1);
        work = CompletableFuture.supplyAsync(() -> queue.run(key, "held", "held", WorkQueue.repeated(), in -> {
            held.countDown();
            await(release);
            return in;
        }));
        await(held);
    }

    /** Holds {@code key} from now until {@link #close}. */
    public static HeldKey hold(WorkQueue queue, Object key) {
        return new HeldKey(queue, key);
    }

    /** Releases the key, once the work holding it has ended. */
    @Override
    public void close() throws Exception {
        release.countDown();
        work.get(5, TimeUnit.SECONDS);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
