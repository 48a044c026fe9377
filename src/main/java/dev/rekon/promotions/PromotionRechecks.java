package dev.rekon.promotions;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.pipeline.ReconcileLoop;

/**
 * Wakes a promotion when a soak ends, so that no event is needed for it: one timer per ImagePromotion, the
 * earliest asked for, then one reconcile through the loop. A process that ends loses its timers; the resync
 * (scope {@code imagepromotions}) wakes those promotions at the latest. Kept here, small, until the pipeline's
 * keyed work queue takes reschedules.
 */
@ApplicationScoped
public class PromotionRechecks {

    private static final Logger LOG = Logger.getLogger(PromotionRechecks.class);

    @Inject
    ReconcileLoop loop;

    @Inject
    jakarta.enterprise.inject.Instance<PromotionReconciler> reconciler;

    private final Map<PromotionKey, Long> due = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rekon-promotion-rechecks");
        t.setDaemon(true);
        return t;
    });

    /** Plans the promotion again after {@code delay} (a second more, so the soak has surely ended). */
    public void after(PromotionKey key, Duration delay) {
        long at = System.nanoTime() + delay.plusSeconds(1).toNanos();
        Long earlier = due.merge(key, at, Math::min);
        if (earlier != at) {
            return;
        }
        timer.schedule(() -> run(key, at), delay.plusSeconds(1).toMillis(), TimeUnit.MILLISECONDS);
    }

    private void run(PromotionKey key, long at) {
        if (!due.remove(key, at)) {
            return;
        }
        try {
            loop.reconcile(reconciler.get(), key);
        } catch (RuntimeException e) {
            LOG.warnf("the recheck of ImagePromotion %s/%s failed (the resync tries again): %s", key.namespace(),
                    key.name(), e.getMessage());
        }
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }
}
