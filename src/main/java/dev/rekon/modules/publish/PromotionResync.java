package dev.rekon.modules.publish;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.modules.lifecycle.KymaResync;
import dev.rekon.modules.publish.plan.SoakKey;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The promotions' part of a resync pass ({@value #AREA}): the soak rules of every published module, a key each of
 * the same {@link SoakReconciler} as Kyma events on the one loop ({@link AreaPass}, counted by its reply), so that a
 * soak that has run its time moves its channel without a new push or Kyma change, and a converged module writes
 * nothing. In report mode nothing is written. Skipped while publication is off or Kyma's kinds are missing.
 */
@ApplicationScoped
public class PromotionResync implements AreaResync {

    public static final String AREA = "promotions";

    @Inject
    PublishService service;

    @Inject
    InstalledKinds kinds;

    @Inject
    ReconcileLoop loop;

    @Inject
    SoakReconciler soaks;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        Optional<AreaResult> unavailable = PublishResync.unavailable(service.enabled(), kinds, AREA, "module promotion",
                KymaResync.KINDS);
        if (unavailable.isPresent()) {
            return unavailable.get();
        }
        AreaTally tally = new AreaTally(AREA);
        if (scope.covers(service.namespace())) {
            AreaPass.run(loop, soaks, service.published().stream().map(m -> new SoakKey(service.namespace(), m))
                    .toList(), scope, tally.byReply());
        }
        return tally.result();
    }
}
