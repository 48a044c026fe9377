package dev.rekon.promotions;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.promotions.view.SecretKeyRef;
import dev.rekon.promotions.view.StageImageDeploy;
import dev.rekon.promotions.watch.StageSettled;
import dev.rekon.rollouts.RolloutObserved;

/**
 * Takes a rollout event in this cluster as a trigger for the promotions it concerns: a kpack Image's build for
 * those whose source it is, an ImageDeploy's change for those with a stage here listing it. A status this process
 * wrote that settles a build (proves or fails it) is a trigger at once; the event an ApiServerSource sends later for
 * that very version is then no trigger again, unless the promotions failed to take the write. A remote stage's
 * ImageDeploy whose change, as the watch of its cluster delivers it, settles a build is a trigger too, without
 * waiting for that stage's CDEvent. The rollout's reply, or write, stands whatever happens here; a failure is logged
 * (without any Secret's content) and healed by the next event, recheck or resync.
 */
@ApplicationScoped
public class PromotionTriggers {

    private static final Logger LOG = Logger.getLogger(PromotionTriggers.class);
    private static final int PLANNING_WAIT_SECONDS = 10;

    @Inject
    PromotionService service;

    @Inject
    InstalledKinds kinds;

    @Inject
    ReconcileLoop loop;

    /**
     * Per remote stage ImageDeploy (the promotions' namespace, the Secret its cluster is reached through, its
     * namespace and name), the settled change its cluster's watch delivered and the promotions took without failing.
     */
    private final Map<String, StageImageDeploy> tookShown = new ConcurrentHashMap<>();

    /** The same keys' settled changes handed to the queue and not yet planned: a CDEvent of one waits for it. */
    private final Map<String, CompletableFuture<?>> planning = new ConcurrentHashMap<>();

    /** The queue's kind of work a stage watch's settled change is: merged (newest) per ImageDeploy and Secret. */
    private final Object settledThere = new Object() {
        @Override
        public String toString() {
            return "promotions/stage-settled";
        }
    };

    /**
     * Per ImageDeploy a promotion lists here, the version this process wrote and its promotions took without
     * failing: one entry per listed ImageDeploy, replaced by the next write.
     */
    private final Map<String, String> tookWritten = new ConcurrentHashMap<>();

    /**
     * A remote stage's watch delivered a change that settles a build there: handed to the loop's queue (this is the
     * watch's thread), whose worker plans the promotions it concerns.
     */
    void settledThere(@Observes StageSettled s) {
        String key = shownKey(s.promotionNamespace(), s.cluster(), s.deploy().namespace(), s.deploy().name());
        CompletableFuture<?> planned = loop.queue().after("stage-settled " + key, settledThere, Duration.ZERO,
                Duration.ZERO, s, this::takeSettled);
        planning.put(key, planned);
        planned.whenComplete((r, e) -> planning.remove(key, planned));
    }

    /** Plans the promotions a stage watch's settled change concerns; a failure is logged, healed as below. */
    Void takeSettled(StageSettled s) {
        String key = shownKey(s.promotionNamespace(), s.cluster(), s.deploy().namespace(), s.deploy().name());
        String what = s.deploy().namespace() + "/" + s.deploy().name() + " in the cluster of Secret "
                + s.promotionNamespace() + "/" + s.cluster().name();
        try {
            Reply reply = service.stageSettledThere(s.promotionNamespace(), s.cluster(), s.deploy().namespace(),
                    s.deploy().name());
            tookShown.put(key, s.deploy());
            LOG.debugf("promotions after ImageDeploy %s at %s: %s %s", what, s.deploy().resourceVersion(),
                    reply.outcome(), reply.reason());
        } catch (TransientFailureException | RefusedException | InvalidEventException e) {
            tookShown.remove(key);
            LOG.warnf("promotions after ImageDeploy %s: %s", what, e.getMessage());
        } catch (RuntimeException e) {
            tookShown.remove(key);
            LOG.errorf(e, "promotions after ImageDeploy %s failed", what);
        }
        return null;
    }

    /**
     * A stage's CDEvent reporting a rollout of {@code namespace/imageDeploy} ({@code digest}: of the artifact it
     * names, null: none): the promotions it concerns, each stage left out whose cluster's watch delivered that very
     * rollout (settled, running that digest) and was planned then. A CDEvent usually comes while that plan runs (it
     * is sent once the stage's status is written, when the watch delivers it too): it waits for that plan, at most
     * {@value #PLANNING_WAIT_SECONDS} s, as it would for the promotion's key.
     */
    public Reply reported(String namespace, String imageDeploy, String environment, String digest) {
        return service.stageReported(namespace, imageDeploy, environment, (p, stage) -> {
            if (digest == null || !stage.remote()) {
                return false;
            }
            String key = shownKey(p.namespace(), stage.cluster(), namespace, imageDeploy);
            CompletableFuture<?> underWay = planning.get(key);
            if (underWay != null) {
                try {
                    underWay.get(PLANNING_WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            StageImageDeploy took = tookShown.get(key);
            return took != null && took.images().values().stream().anyMatch(i -> i.endsWith("@" + digest));
        });
    }

    private static String shownKey(String promotionNamespace, SecretKeyRef cluster, String namespace, String name) {
        return promotionNamespace + "/" + cluster.name() + "/" + cluster.key() + " " + namespace + "/" + name;
    }

    void observed(@Observes RolloutObserved o) {
        if (!kinds.installed(InstalledKinds.IMAGE_PROMOTION)) {
            return;
        }
        String key = o.namespace() + "/" + o.name();
        boolean image = "Image".equals(o.kind());
        if (!image && !o.written() && o.resourceVersion() != null
                && o.resourceVersion().equals(tookWritten.get(key))) {
            LOG.debugf("promotions after ImageDeploy %s at %s: taken when it was written", key, o.resourceVersion());
            return;
        }
        try {
            Reply reply = image ? service.sourceBuilt(o.namespace(), o.name(), o.resourceVersion())
                    : o.written() ? service.stageWritten(o.namespace(), o.name())
                    : service.stageChanged(o.namespace(), o.name());
            if (o.written() && !PromotionService.NO_PROMOTIONS.equals(reply.reason())
                    && !PromotionService.NOT_SETTLED.equals(reply.reason())) {
                tookWritten.put(key, o.resourceVersion());
            }
            LOG.debugf("promotions after %s %s: %s %s", o.kind(), key, reply.outcome(), reply.reason());
        } catch (TransientFailureException | RefusedException | InvalidEventException e) {
            // A follow-up has nobody to answer: it is logged, and the next event or resync tries again.
            tookWritten.remove(key);
            LOG.warnf("promotions after %s %s: %s", o.kind(), key, e.getMessage());
        } catch (RuntimeException e) {
            // Not to fail the rollout that told it (its write stands): logged whole, healed as above.
            tookWritten.remove(key);
            LOG.errorf(e, "promotions after %s %s failed", o.kind(), key);
        }
    }
}
