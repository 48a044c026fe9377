package dev.rekon.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs {@code perWorker} calls on each of {@code concurrency} workers and times every call. */
public final class Load {

    /** One call of worker {@code w}, its {@code i}-th; returns false when the call failed. */
    public interface Call {
        boolean run(int worker, int i) throws Exception;
    }

    /** The timings and how many calls failed. */
    public record Result(Stats stats, int failures) {
    }

    private Load() {
    }

    public static Result run(int concurrency, int perWorker, Call call) throws Exception {
        List<Double> millis = Collections.synchronizedList(new ArrayList<>());
        int[] failures = new int[concurrency];
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            int worker = w;
            done.add(pool.submit(() -> {
                for (int i = 0; i < perWorker; i++) {
                    long s = System.nanoTime();
                    boolean ok = call.run(worker, i);
                    millis.add((System.nanoTime() - s) / 1e6);
                    if (!ok) {
                        failures[worker]++;
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        int failed = 0;
        for (int f : failures) {
            failed += f;
        }
        return new Result(Stats.of(millis, wall), failed);
    }
}
