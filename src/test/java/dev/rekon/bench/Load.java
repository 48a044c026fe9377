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

    /** One call that measures itself: its latency in ms, or null when it failed. */
    public interface TimedCall {
        Double run(int worker, int i) throws Exception;
    }

    /** The timings and how many calls failed. */
    public record Result(Stats stats, int failures) {
    }

    private Load() {
    }

    public static Result run(int concurrency, int perWorker, Call call) throws Exception {
        return runTimed(concurrency, perWorker, (w, i) -> {
            long s = System.nanoTime();
            boolean ok = call.run(w, i);
            double ms = (System.nanoTime() - s) / 1e6;
            return ok ? ms : -Math.max(ms, 1e-6);
        });
    }

    /** Like {@link #run}, but each call reports its own latency (a negative one counts as a failure). */
    public static Result runTimed(int concurrency, int perWorker, TimedCall call) throws Exception {
        List<Double> millis = Collections.synchronizedList(new ArrayList<>());
        int[] failures = new int[concurrency];
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        long t0 = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            int worker = w;
            done.add(pool.submit(() -> {
                for (int i = 0; i < perWorker; i++) {
                    Double ms = call.run(worker, i);
                    if (ms == null || ms < 0) {
                        failures[worker]++;
                    }
                    if (ms != null) {
                        millis.add(Math.abs(ms));
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
