package dev.rekon.promotions;

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
 * those whose source it is, an ImageDeploy's change for those with a stage here listing it. The rollout's reply
 * stands whatever happens here; a failure is logged (without any Secret's content) and healed by the next event,
 * recheck or resync.
 */
@ApplicationScoped
public class PromotionTriggers {

    private static final Logger LOG = Logger.getLogger(PromotionTriggers.class);

    @Inject
    PromotionService service;

    @Inject
    InstalledKinds kinds;

    void observed(@Observes RolloutObserved o) {
        if (!kinds.installed(InstalledKinds.IMAGE_PROMOTION)) {
            return;
        }
        try {
            Reply reply = "Image".equals(o.kind()) ? service.sourceBuilt(o.namespace(), o.name(), o.resourceVersion())
                    : service.stageChanged(o.namespace(), o.name());
            LOG.debugf("promotions after %s %s/%s: %s %s", o.kind(), o.namespace(), o.name(), reply.outcome(),
                    reply.reason());
        } catch (TransientFailureException | RefusedException | InvalidEventException e) {
            // A follow-up of a watch has nobody to answer: it is logged, and the next event or resync tries again.
            LOG.warnf("promotions after %s %s/%s: %s", o.kind(), o.namespace(), o.name(), e.getMessage());
        }
    }
}
