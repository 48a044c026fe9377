package dev.rekon.promotions;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.promotions.apply.PromotionGateway;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The image promotions' part of a resync pass ({@value #AREA}; {@code promotions} is the module channels' soak
 * rules): every ImagePromotion Rekon may act in, a key each through the one loop ({@link AreaPass}, counted by its
 * reply), so that a lost event, a soak whose timer died with its process, or a stage that was unreachable is
 * healed. In report mode nothing is written. Skipped while the ImagePromotion CRD is not installed.
 */
@ApplicationScoped
public class ImagePromotionResync implements AreaResync {

    public static final String AREA = "imagepromotions";

    @Inject
    ReconcileLoop loop;

    @Inject
    PromotionReconciler reconciler;

    @Inject
    PromotionGateway gateway;

    @Inject
    InstalledKinds kinds;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        AreaTally tally = new AreaTally(AREA);
        if (!kinds.installed(InstalledKinds.IMAGE_PROMOTION)) {
            return tally.result();
        }
        AreaPass.run(loop, reconciler, gateway.promotions(scope.namespace()).stream()
                .map(p -> PromotionKey.of(p.namespace(), p.name())).toList(), scope, tally.byReply());
        return tally.result();
    }
}
