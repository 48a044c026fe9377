package dev.rekon.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;

/** A pass no request waits on (the start-up pass) is the loop's to run, and its keys still run in parallel. */
class BackgroundPassTest {

    private final ReconcileLoop loop = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("*")), 2);

    @AfterEach
    void stop() {
        loop.stop();
    }

    @Test
    void itsKeysRunOnTheWorkersTogetherNotOneAfterTheOther() throws Exception {
        CyclicBarrier both = new CyclicBarrier(2);
        List<String> threads = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> pass = loop.background("test", () -> {
            List<CompletableFuture<String>> keys = new ArrayList<>();
            for (String key : List.of("a", "b")) {
                keys.add(loop.queue().submit(key, "test", key, WorkQueue.<String>repeated(), in -> {
                    threads.add(Thread.currentThread().getName());
                    try {
                        both.await(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("the keys did not run together", e);
                    }
                    return in;
                }));
            }
            keys.forEach(CompletableFuture::join);
        });
        pass.get(20, TimeUnit.SECONDS);
        assertEquals(2, threads.size());
        assertTrue(threads.stream().allMatch(t -> t.startsWith("rekon-reconcile-")), "on the workers: " + threads);
    }

    @Test
    void aPassThatFailsSaysSo() {
        CompletableFuture<Void> pass = loop.background("test", () -> {
            throw new IllegalStateException("listing failed");
        });
        ExecutionException e = assertThrows(ExecutionException.class, () -> pass.get(10, TimeUnit.SECONDS));
        assertEquals("listing failed", e.getCause().getMessage());
    }
}
