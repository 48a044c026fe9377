package dev.rekon.promotions;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.rollouts.RolloutObserved;

/**
 * Takes a rollout event in this cluster as a trigger for the promotions it concerns: a kpack Image's build for
 * those whose source it is, an ImageDeploy's change for those with a stage here listing it. A status this process
 * wrote that settles a build (proves or fails it) is a trigger at once; the event an ApiServerSource sends later for
 * that very version is then no trigger again, unless the promotions failed to take the write. The rollout's reply,
 * or write, stands whatever happens here; a failure is logged (without any Secret's content) and healed by the next
 * event, recheck or resync.
 */
@ApplicationScoped
public class PromotionTriggers {

    private static final Logger LOG = Logger.getLogger(PromotionTriggers.class);

    @Inject
    PromotionService service;

    @Inject
    InstalledKinds kinds;

    /**
     * Per ImageDeploy a promotion lists here, the version this process wrote and its promotions took without
     * failing: one entry per listed ImageDeploy, replaced by the next write.
     */
    private final Map<String, String> tookWritten = new ConcurrentHashMap<>();

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
