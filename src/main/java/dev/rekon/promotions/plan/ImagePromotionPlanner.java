package dev.rekon.promotions.plan;

import java.util.List;
import java.util.Optional;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.Reply;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionHistory;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.StageStatus;

/**
 * Decides, purely, where each build of an ImagePromotion goes next. Stage by stage, in spec order: the build
 * offered (the source Image's newest Ready build for the first stage, the previous stage's build once Proven
 * there) enters when it is newer than the stage's, never failed there, and, at a Manual stage, approved by digest;
 * then the stage's build is judged ({@link StageProgress}); a build that failed goes back to the stage's last
 * proven one when rollback is Automatic. Bad input ({@link PromotionSpecChecks}) is refused before any of it, writing to no
 * stage. The status (stages, bounded history, Ready) is part of the plan.
 */
public final class ImagePromotionPlanner {

    public static final String APPROVAL_MISMATCH = "ApprovalMismatch";
    public static final String NOTHING_WAITS = "NoApprovalWaiting";
    public static final String UNKNOWN_STAGE = "UnknownStage";

    /**
     * The reason the spec alone (before any stage is read) cannot be planned, or empty: so that a load reads no
     * stage of a promotion whose plan will be refused anyway.
     */
    public static Optional<String> specProblem(PromotionRequest r) {
        return PromotionSpecChecks.spec(r).map(PromotionSpecChecks.Problem::reason);
    }

    /** Why the spec alone, before the source Image or any stage is read, allows no stage to be read. */
    public static Optional<String> problemBeforeReads(PromotionRequest r) {
        return PromotionSpecChecks.beforeReads(r).map(PromotionSpecChecks.Problem::reason);
    }

    public ImagePromotionPlan plan(PromotionRequest r) {
        ImagePromotionView p = r.promotion();
        Optional<PromotionSpecChecks.Problem> problem = PromotionSpecChecks.check(r);
        if (problem.isPresent()) {
            return refused(r, problem.get());
        }
        if (r.approval() != null && p.spec().stage(r.approval().stage()) == null) {
            return new ImagePromotionPlan.ApprovalRefused(p, Reply.rejected(UNKNOWN_STAGE, "ImagePromotion " + p.namespace()
                    + "/" + p.name() + " has no stage " + r.approval().stage(), List.of(p.ref())));
        }
        PromotionWalk walk = new PromotionWalk(r);
        for (int i = 0; i < p.spec().stages().size(); i++) {
            Optional<ImagePromotionPlan.ApprovalRefused> refusal = walk.stage(i);
            if (refusal.isPresent()) {
                return refusal.get();
            }
        }
        return walk.finish();
    }

    /** The plan for bad input: the status says why, stages as they were; nothing else is written. */
    private static ImagePromotionPlan refused(PromotionRequest r, PromotionSpecChecks.Problem problem) {
        ImagePromotionView p = r.promotion();
        PromotionStatus next = withReady(r, p.status().stages(), p.status().history(),
                Conditions.Condition.isFalse("Ready", problem.reason(), problem.message()));
        return new ImagePromotionPlan.Refused(p, next.equals(p.status()) ? null : next,
                Reply.rejected(problem.reason(), problem.message(), List.of(p.ref())));
    }

    static PromotionStatus withReady(PromotionRequest r, List<StageStatus> stages, List<PromotionHistory> history,
            Conditions.Condition ready) {
        ImagePromotionView p = r.promotion();
        return new PromotionStatus(p.generation(), stages, history,
                Conditions.set(p.status().conditions(), ready, p.generation(), r.now()));
    }
}
