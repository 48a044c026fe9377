package dev.rekon.rollouts;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.pipeline.ReconcileLoop;

/**
 * Decides when the status of an ImageDeploy whose Deployment a rollout has just written is written: after the
 * input's reply, at most once per {@code rekon.rollouts.status-report-interval} per ImageDeploy, so that a burst
 * of rollouts becomes one status write. Only the key waits (the newest replaces the one before, and remembers the
 * rollout it reports); its pass runs through the one loop, which plans the status again from the views as they
 * are then and writes it when it differs. A pass that fails is not retried here: the next input or resync writes
 * the status. On shutdown (Knative scaling down) what waits runs before the process ends.
 */
@ApplicationScoped
public class StatusPasses {

    private static final Logger LOG = Logger.getLogger(StatusPasses.class);
    private static final Duration SHUTDOWN = Duration.ofSeconds(10);
    private static final int MAX_KEYS = 10_000;

    @Inject
    RolloutConfig config;

    @Inject
    ReconcileLoop loop;

    @Inject
    RolloutReconciler rollouts;

    @Inject
    PushReconciler pushes;

    Duration interval;
    private ScheduledThreadPoolExecutor threads;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();

    /** One ImageDeploy's waiting key, and when its next pass may run. */
    private static final class Slot {
        ImageDeployKey next;
        boolean scheduled;
        long notBeforeMillis;
    }

    @PostConstruct
    void start() {
        interval = interval != null ? interval : config.statusReportInterval();
        threads = new ScheduledThreadPoolExecutor(2, r -> {
            Thread t = new Thread(r, "rekon-status-passes");
            t.setDaemon(true);
            return t;
        });
        threads.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Queues the status pass of the rollout the key made. */
    public void submit(ImageDeployKey key) {
        if (slots.size() > MAX_KEYS) {
            long now = System.currentTimeMillis();
            slots.values().removeIf(s -> idle(s) && s.notBeforeMillis < now);
        }
        Slot slot = slots.computeIfAbsent(key.group() + "/" + key.namespace() + "/" + key.name(), k -> new Slot());
        synchronized (slot) {
            slot.next = key.forStatus();
            scheduleIfIdle(slot);
        }
    }

    private void scheduleIfIdle(Slot slot) {
        if (!slot.scheduled) {
            slot.scheduled = true;
            try {
                threads.schedule(() -> drain(slot), Math.max(0, slot.notBeforeMillis - System.currentTimeMillis()),
                        TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                slot.scheduled = false;
            }
        }
    }

    private void drain(Slot slot) {
        ImageDeployKey key;
        synchronized (slot) {
            key = slot.next;
            slot.next = null;
            slot.notBeforeMillis = System.currentTimeMillis() + interval.toMillis();
        }
        if (key != null) {
            run(key);
        }
        synchronized (slot) {
            slot.scheduled = false;
            if (slot.next != null) {
                scheduleIfIdle(slot);
            }
        }
    }

    private void run(ImageDeployKey key) {
        try {
            if (key instanceof PushKey push) {
                loop.reconcile(pushes, push);
            } else {
                loop.reconcile(rollouts, (RolloutKey) key);
            }
        } catch (RuntimeException e) {
            LOG.warnf("status of %s not written: %s; the next event or resync writes it", key.ref(), e.getMessage());
        }
    }

    private static boolean idle(Slot slot) {
        synchronized (slot) {
            return !slot.scheduled && slot.next == null;
        }
    }

    /** Waits until no pass waits or runs, at most {@code timeout}; true when none does. For tests. */
    public boolean awaitIdle(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!slots.values().stream().allMatch(StatusPasses::idle)) {
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

    /** Runs what waits now, without waiting out intervals, then stops: a process scaled down still reports. */
    @PreDestroy
    void stop() {
        long end = System.nanoTime() + SHUTDOWN.toNanos();
        threads.shutdownNow();
        slots.values().forEach(slot -> {
            if (System.nanoTime() < end) {
                drain(slot);
            }
        });
    }
}
