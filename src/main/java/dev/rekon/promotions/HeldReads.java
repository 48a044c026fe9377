package dev.rekon.promotions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.rekon.pipeline.LastPlans;
import dev.rekon.promotions.plan.ImagePromotionPlan;
import dev.rekon.promotions.plan.PromotedImageWrite;
import dev.rekon.promotions.plan.PromotionRequest;
import dev.rekon.promotions.plan.VerifyJobWrite;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.StageView;
import dev.rekon.promotions.view.VerifyJob;
import dev.rekon.rollouts.view.KpackImage;

/**
 * What the page plans an ImagePromotion from besides its watch, since a stage may be in another cluster and a page
 * reads none: the source Image and each stage as the promotion's last attempt read them, as that attempt's plan
 * left them once carried out in full (the PromotedImages it wrote hold the build written, the verify Jobs it created
 * run: {@link PromotionReconciler#rememberCarriedOut}). The loop keeps it as what the area remembers of its last
 * plan ({@link LastPlans}), forgotten with the promotion; a change in a stage since is not in it, and the next event
 * or resync reads it.
 *
 * @param source the source kpack Image as read (null: it did not exist)
 * @param stages each stage as read, by stage name (a stage the walk never reached is absent)
 */
record HeldReads(KpackImage source, Map<String, StageView> stages) {

    HeldReads {
        stages = Map.copyOf(stages);
    }

    /** What an attempt read. */
    static HeldReads of(PromotionRequest r) {
        return new HeldReads(r.source(), r.stages());
    }

    /** As the plan, carried out in full, leaves the stages: so that a page plan never promotes the same build again. */
    HeldReads after(ImagePromotionPlan.Advance a) {
        Map<String, StageView> out = new LinkedHashMap<>(stages);
        for (PromotedImageWrite w : a.promotedImages()) {
            StageView v = out.get(w.stage());
            if (v != null) {
                PromotedImageView was = v.promotedImage();
                PromotedImageView now = new PromotedImageView(w.namespace(), w.name(), was == null ? null : was.uid(),
                        null, was == null ? 1 : was.generation(), w.status());
                out.put(w.stage(), new StageView(v.stage(), v.problem(), v.problemMessage(), now, v.imageDeploys(),
                        v.verifyJob()));
            }
        }
        for (VerifyJobWrite j : a.verifyJobs()) {
            StageView v = out.get(j.stage());
            if (v != null) {
                out.put(j.stage(), new StageView(v.stage(), v.problem(), v.problemMessage(), v.promotedImage(),
                        v.imageDeploys(), new VerifyJob(j.namespace(), j.name(), VerifyJob.State.RUNNING, null)));
            }
        }
        return new HeldReads(source, out);
    }

    /**
     * The stages of the promotion's spec a plan would need that were never read (added by hand since, say), in spec
     * order: none past a stage whose read found a problem, since the plan stops there.
     */
    List<String> unread(ImagePromotionView p) {
        List<String> out = new ArrayList<>();
        for (PromotionStage s : p.spec().stages()) {
            StageView v = stages.get(s.name());
            if (v == null) {
                out.add(s.name());
            } else if (v.problem() != null) {
                break;
            }
        }
        return out;
    }
}
