package dev.rekon.rollouts;

import java.time.Duration;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.pipeline.ReconcileLoop;

/**
 * Decides when the status of an ImageDeploy whose Deployment a rollout has just written is written: after the
 * input's reply, at most once per {@code rekon.rollouts.status-report-interval} per ImageDeploy, so that a burst
 * of rollouts becomes one status write. The pass is a reschedule on the loop's one work queue (spaced by the
 * interval, so a quiet ImageDeploy's runs at once): only the key waits (the newest replaces the one before, and
 * remembers the rollout it reports), and its pass runs through the one loop, alone on its ImageDeploy, which plans
 * the status again from the views as they are then and writes it when it differs. A pass that fails is not
 * retried here: the next input or resync writes the status. A managed Deployment whose rollout completes or
 * gives up asks for a pass of its own kind ({@link #follow}, from {@link FollowedDeployments}), run at once, so
 * that {@code RolledOut} follows the Deployment's watch; a rollout's pass says {@code RolledOut} too, so where one
 * waits the other is not queued beside it (one status write per change, whichever comes first). On shutdown
 * (Knative scaling down) what waits runs before the process ends.
 */
@ApplicationScoped
public class StatusPasses {

    private static final Logger LOG = Logger.getLogger(StatusPasses.class);
    private static final Duration SHUTDOWN = Duration.ofSeconds(10);

    @Inject
    RolloutConfig config;

    @Inject
    ReconcileLoop loop;

    @Inject
    RolloutReconciler rollouts;

    @Inject
    PushReconciler pushes;

    Duration interval;

    /** The kind of the queue's work these passes are: merged and spaced only with each other. */
    private final Object kind = new Object() {
        @Override
        public String toString() {
            return "rollouts/status-pass";
        }
    };

    /** The passes a Deployment's change asks for ({@link FollowedDeployments}): merged and spaced among themselves. */
    private final Object following = new Object() {
        @Override
        public String toString() {
            return "rollouts/deployment-followed";
        }
    };

    @PostConstruct
    void start() {
        interval = interval != null ? interval : config.statusReportInterval();
    }

    /**
     * Queues the status pass of the rollout the key made. A pass that a Deployment's change asked for and that still
     * waits its turn (the watch often shows Rekon's own patch before the patch's reply is read) is taken back, and
     * the rollout's pass, which says {@code RolledOut} too, runs at once in its place: one status write.
     */
    public void submit(ImageDeployKey key) {
        boolean followed = key instanceof RolloutKey && loop.queue().withdraw(key.ref(), following);
        loop.queue().after(key.ref(), kind, Duration.ZERO, followed ? Duration.ZERO : interval, key.forStatus(),
                this::run);
    }

    /**
     * Asks for a status pass because the ImageDeploy's Deployment changed. A rollout's pass that waits out its
     * interval for the key runs now instead, and says {@code RolledOut} too
     * ({@link dev.rekon.rollouts.plan.RolloutPlanner#statusPass}): one status write where there were two, the
     * Deployment's change and the rollout's message, while a promotion waits on that ImageDeploy. Otherwise a pass
     * of a kind of its own, so that it never replaces the pass of a rollout (which reports what that rollout
     * applied). Not spaced: it is asked for only when what {@code RolledOut} says changed, a few times per rollout,
     * and the completion it reports is what a promotion waits for.
     */
    public void follow(RolloutKey key) {
        if (!loop.queue().hasten(key.ref(), kind, RolloutKey.class::isInstance)) {
            loop.queue().after(key.ref(), following, Duration.ZERO, Duration.ZERO, key, this::run);
        }
    }

    private boolean ours(Object kind) {
        return kind == this.kind || kind == following;
    }

    private Void run(ImageDeployKey key) {
        try {
            if (key instanceof PushKey push) {
                loop.reconcile(pushes, push);
            } else {
                loop.reconcile(rollouts, (RolloutKey) key);
            }
        } catch (RuntimeException e) {
            LOG.warnf("status of %s not written: %s; the next event or resync writes it", key.ref(), e.getMessage());
        }
        return null;
    }

    /** Waits until no pass waits or runs, at most {@code timeout}; true when none does. For tests. */
    public boolean awaitIdle(Duration timeout) {
        return loop.queue().awaitIdle(this::ours, timeout);
    }

    /** Runs what waits now, without waiting out intervals: a process scaled down still reports. */
    @PreDestroy
    void stop() {
        loop.queue().runWaitingNow(this::ours, SHUTDOWN);
    }
}
