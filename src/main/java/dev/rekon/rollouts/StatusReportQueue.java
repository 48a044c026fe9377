package dev.rekon.rollouts;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import dev.rekon.cluster.KubeErrors.PermanentApiException;
import dev.rekon.core.TransientFailureException;

/**
 * Decides when an ImageDeploy's status report is written, as a controller's work queue does for its keys: after
 * the event's reply, at most once per {@link #interval} per ImageDeploy, a burst of rollouts becoming one write.
 * A key holds at most two waiting reports, the latest and the latest applied one (whose Progressing condition
 * tells of the rollout), run in that order; each computes its status from the freshest views when it runs. A
 * report that fails transiently is tried again with back-off unless a newer one replaced it; one refused for
 * good is logged. It does no I/O itself and knows nothing of statuses: it runs what it is given.
 */
public final class StatusReportQueue {

    private static final Logger LOG = Logger.getLogger(StatusReportQueue.class);
    static final int ATTEMPTS = 8;
    private static final int MAX_KEYS = 10_000;

    /** A status write, run on the queue's threads. */
    public interface Report {
        void write();
    }

    private record Waiting(Report report, boolean applied, int attempt) {
    }

    private static final class Slot {
        Waiting latest;
        Waiting latestApplied;
        boolean scheduled;
        /** When the key may be written next: one interval after its last write, later while backing off. */
        long notBeforeMillis;

        boolean busy() {
            return scheduled || latest != null || latestApplied != null;
        }
    }

    private final Duration interval;
    private final int maxKeys;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor threads;

    public StatusReportQueue(Duration interval, int threads) {
        this(interval, threads, MAX_KEYS);
    }

    /** @param maxKeys how many keys are held before idle ones are forgotten */
    StatusReportQueue(Duration interval, int threads, int maxKeys) {
        this.interval = interval;
        this.maxKeys = maxKeys;
        this.threads = new ScheduledThreadPoolExecutor(threads, r -> {
            Thread t = new Thread(r, "rekon-status-reports");
            t.setDaemon(true);
            return t;
        });
        // A drain waiting out its interval is dropped on shutdown: shutdown drains every key itself, at once.
        this.threads.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Queues a report for the key; {@code applied} when it reports a rollout that changed the Deployment. */
    public void submit(String key, Report report, boolean applied) {
        if (slots.size() > maxKeys) {
            forgetIdleSlots();
        }
        // Inside compute: forgetting the key's slot cannot come between finding it and filling it.
        slots.compute(key, (k, existing) -> {
            Slot slot = existing != null ? existing : new Slot();
            synchronized (slot) {
                slot.latest = new Waiting(report, applied, 1);
                if (applied) {
                    slot.latestApplied = slot.latest;
                }
                scheduleIfIdle(key, slot);
            }
            return slot;
        });
    }

    private void scheduleIfIdle(String key, Slot slot) {
        if (!slot.scheduled) {
            slot.scheduled = true;
            long wait = Math.max(0, slot.notBeforeMillis - System.currentTimeMillis());
            try {
                threads.schedule(() -> drain(key, slot), wait, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                slot.scheduled = false;
                LOG.warnf("status of %s not written: the queue has stopped", key);
            }
        }
    }

    private void drain(String key, Slot slot) {
        Waiting applied;
        Waiting latest;
        synchronized (slot) {
            applied = slot.latestApplied;
            latest = slot.latest;
            slot.latestApplied = null;
            slot.latest = null;
            slot.notBeforeMillis = System.currentTimeMillis() + interval.toMillis();
        }
        if (applied != null && applied != latest) {
            run(key, slot, applied);
        }
        if (latest != null) {
            run(key, slot, latest);
        }
        synchronized (slot) {
            slot.scheduled = false;
            if (slot.latest != null || slot.latestApplied != null) {
                scheduleIfIdle(key, slot);
            }
        }
    }

    private void run(String key, Slot slot, Waiting w) {
        try {
            w.report().write();
        } catch (PermanentApiException e) {
            LOG.warnf("status of %s not written: %s", key, e.getMessage());
        } catch (TransientFailureException e) {
            if (w.attempt() >= ATTEMPTS) {
                LOG.errorf("status of %s not written after %d attempts: %s; the next event for it writes it",
                        key, ATTEMPTS, e.getMessage());
            } else {
                LOG.debugf("status of %s not written yet (%s), trying again", key, e.getMessage());
                retry(slot, new Waiting(w.report(), w.applied(), w.attempt() + 1));
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "status of %s not written", key);
        }
    }

    /** A retried report only fills a place that no newer report has taken since it was taken out. */
    private void retry(Slot slot, Waiting w) {
        synchronized (slot) {
            if (slot.latest == null) {
                slot.latest = w;
            }
            if (w.applied() && slot.latestApplied == null) {
                slot.latestApplied = w;
            }
            slot.notBeforeMillis = Math.max(slot.notBeforeMillis, System.currentTimeMillis() + backoffMillis(w.attempt()));
        }
    }

    private void forgetIdleSlots() {
        long now = System.currentTimeMillis();
        slots.keySet().forEach(key -> slots.computeIfPresent(key, (k, slot) -> {
            synchronized (slot) {
                return !slot.busy() && slot.notBeforeMillis < now ? null : slot;
            }
        }));
    }

    static long backoffMillis(int attempt) {
        return Math.min(30_000, 250L << Math.min(attempt, 8));
    }

    /** Whether nothing waits or runs; for tests and shutdown. */
    public boolean idle() {
        for (Slot slot : slots.values()) {
            synchronized (slot) {
                if (slot.busy()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Waits until {@link #idle()}, at most {@code timeout}; true when idle. */
    public boolean awaitIdle(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!idle()) {
            if (System.nanoTime() > end) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Writes what waits now, without waiting out intervals, then stops: a process scaled down still reports. */
    public void shutdown(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        threads.shutdown();
        try {
            threads.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        threads.shutdownNow();
        slots.forEach((key, slot) -> {
            if (System.nanoTime() < end) {
                drain(key, slot);
            }
        });
    }
}
