package dev.rekon.promotions.plan;

import static dev.rekon.promotions.plan.Promotions.NOW;
import static dev.rekon.promotions.plan.Promotions.build;
import static dev.rekon.promotions.plan.Promotions.deploy;
import static dev.rekon.promotions.plan.Promotions.promoted;
import static dev.rekon.promotions.plan.Promotions.promotion;
import static dev.rekon.promotions.plan.Promotions.request;
import static dev.rekon.promotions.plan.Promotions.running;
import static dev.rekon.promotions.plan.Promotions.source;
import static dev.rekon.promotions.plan.Promotions.stage;
import static dev.rekon.promotions.plan.Promotions.stages;
import static dev.rekon.promotions.plan.Promotions.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.Outcome;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.StageDeploy;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;

/** Approval by digest, never twice or backwards, newer builds first, failure, and rollback. */
class ImagePromotionOrderPlannerTest {

    private final ImagePromotionPlanner planner = new ImagePromotionPlanner();

    private static final Build B0 = build(7);
    private static final Build B1 = build(8);
    private static final Build B2 = build(9);

    /** Dev and staging have proven B1; prod runs B0. */
    private ImagePromotionPlan provenUpToStaging(Approval approval) {
        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                stage("staging", B1, StagePhase.Proven, NOW.minusSeconds(600), B1),
                stage("prod", B0, StagePhase.Proven, NOW.minusSeconds(9000), B0)));
        return planner.plan(request(p, source(8), view("dev", null, running(B1, 900), null),
                view("staging", promoted(B1, 4), running(B1, 900), null),
                view("prod", promoted(B0, 2), running(B0, 9000), null), approval));
    }

    @Test
    void anApprovalOfTheWaitingDigestLetsItIn() {
        ImagePromotionPlan.Advance plan = assertInstanceOf(ImagePromotionPlan.Advance.class,
                provenUpToStaging(new Approval("prod", B1.image())));
        assertEquals(1, plan.promotedImages().size());
        PromotedImageWrite w = plan.promotedImages().get(0);
        assertEquals("prod", w.stage());
        assertEquals("rv2", w.resourceVersion(), "guarded by the version read");
        assertEquals(3L, w.status().buildCounter(), "one up from the PromotedImage's");
        assertEquals(StagePhase.Promoting, plan.status().stage("prod").phase());
    }

    @Test
    void theBareDigestIsAcceptedToo() {
        ImagePromotionPlan.Advance plan = assertInstanceOf(ImagePromotionPlan.Advance.class,
                provenUpToStaging(new Approval("prod", B1.digest())));
        assertEquals("prod", plan.promotedImages().get(0).stage());
    }

    @Test
    void withoutAnApprovalTheStageWaitsAndNothingIsWrittenThere() {
        ImagePromotionPlan.Advance plan = assertInstanceOf(ImagePromotionPlan.Advance.class, provenUpToStaging(null));
        assertEquals(List.of(), plan.promotedImages());
        assertEquals(StagePhase.WaitingForApproval, plan.status().stage("prod").phase());
    }

    @Test
    void anApprovalOfAnotherDigestIsRejectedNamingTheOneThatWaits() {
        ImagePromotionPlan plan = provenUpToStaging(new Approval("prod", B2.image()));
        ImagePromotionPlan.ApprovalRefused refused = assertInstanceOf(ImagePromotionPlan.ApprovalRefused.class, plan);
        assertEquals(ImagePromotionPlanner.APPROVAL_MISMATCH, refused.reply().reason());
        assertTrue(refused.reply().message().contains(B1.image()), refused.reply().message());
        assertEquals(false, plan.writes());
    }

    @Test
    void anApprovalOfAStageThatWaitsForNothingOrDoesNotExistIsRejected() {
        ImagePromotionPlan none = provenUpToStaging(new Approval("staging", B1.image()));
        assertEquals(ImagePromotionPlanner.NOTHING_WAITS, none.reply().reason());
        ImagePromotionPlan unknown = provenUpToStaging(new Approval("qa", B1.image()));
        assertEquals(ImagePromotionPlanner.UNKNOWN_STAGE, unknown.reply().reason());
        assertEquals(Outcome.REJECTED, unknown.reply().outcome());
    }

    @Test
    void theSameApprovalAgainAfterTheBuildEnteredChangesNothing() {
        ImagePromotionPlan.Advance first = assertInstanceOf(ImagePromotionPlan.Advance.class,
                provenUpToStaging(new Approval("prod", B1.image())));
        ImagePromotionView p = Promotions.withStatus(first.promotion(), first.status());
        ImagePromotionPlan plan = planner.plan(request(p, source(8), view("dev", null, running(B1, 900), null),
                view("staging", promoted(B1, 4), running(B1, 900), null),
                view("prod", promoted(B1, 3), running(B0, 9000), null), new Approval("prod", B1.image())));
        assertEquals(Outcome.UNCHANGED, plan.reply().outcome());
        assertEquals("AlreadyApproved", plan.reply().reason());
    }

    @Test
    void aNewerBuildSupersedesOneSoakingAndTheOlderNeverMovesOn() {
        ImagePromotionView p = promotion("None", stages(stage("dev", B2, StagePhase.Proven, NOW.minusSeconds(900), B2),
                stage("staging", B1, StagePhase.Soaking, NOW.minusSeconds(60), B0), StageStatus.empty("prod")));
        ImagePromotionPlan.Advance plan = assertInstanceOf(ImagePromotionPlan.Advance.class, planner.plan(request(p, source(9),
                view("dev", null, running(B2, 900), null), view("staging", promoted(B1, 2), running(B1, 60), null),
                null, null)));
        assertEquals(List.of("staging"), plan.promotedImages().stream().map(PromotedImageWrite::stage).toList());
        assertEquals(B2.image(), plan.promotedImages().get(0).status().latestImage());
        assertEquals(StagePhase.Promoting, plan.status().stage("staging").phase());
        assertEquals(StagePhase.Empty, plan.status().stage("prod").phase());
    }

    @Test
    void anOlderBuildIsNeverWrittenOverANewerOne() {
        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                stage("staging", B2, StagePhase.Soaking, NOW.minusSeconds(60), null), StageStatus.empty("prod")));
        ImagePromotionPlan.Advance plan = assertInstanceOf(ImagePromotionPlan.Advance.class, planner.plan(request(p, source(8),
                view("dev", null, running(B1, 900), null), view("staging", promoted(B2, 2), running(B2, 60), null),
                null, null)));
        assertEquals(List.of(), plan.promotedImages());
        assertEquals(B2.image(), plan.status().stage("staging").image());
    }

    /** Staging soaks B1 (last proven B0) when its ImageDeploy turns Ready=False with B1. */
    private ImagePromotionPlan.Advance failingInStaging(String rollback) {
        ImagePromotionView p = promotion(rollback, stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                stage("staging", B1, StagePhase.Soaking, NOW.minusSeconds(60), B0), StageStatus.empty("prod")));
        return assertInstanceOf(ImagePromotionPlan.Advance.class, planner.plan(request(p, source(8),
                view("dev", null, running(B1, 900), null),
                view("staging", promoted(B1, 5), deploy(B1, "False", "False", 10), null), null, null)));
    }

    @Test
    void notReadyWhileSoakingFailsTheBuildWhichGoesNoFurther() {
        ImagePromotionPlan.Advance plan = failingInStaging("None");
        StageStatus staging = plan.status().stage("staging");
        assertEquals(StagePhase.Failed, staging.phase());
        assertTrue(staging.message().contains("ProgressDeadlineExceeded"), staging.message());
        assertEquals(List.of(), plan.promotedImages());
        assertEquals(StagePhase.Failed, plan.status().history().get(0).phase());
    }

    @Test
    void aRolloutThatMissedItsDeadlineFailsTheBuildToo() {
        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                stage("staging", B1, StagePhase.Promoting, NOW.minusSeconds(60), B0), StageStatus.empty("prod")));
        StageDeploy stuck = new StageDeploy("hello", B1.image(), deploy(B1, "True", "True", 60).ready(),
                new Conditions.Written("RolledOut", "False", StageDeploy.DEADLINE, "ReplicaSet hello-7f has timed out",
                        1L, NOW.minusSeconds(5).toString(), null));
        ImagePromotionPlan.Advance plan = assertInstanceOf(ImagePromotionPlan.Advance.class, planner.plan(request(p, source(8),
                view("dev", null, running(B1, 900), null), view("staging", promoted(B1, 5), stuck, null), null, null)));
        StageStatus staging = plan.status().stage("staging");
        assertEquals(StagePhase.Failed, staging.phase());
        assertTrue(staging.message().contains("timed out"), staging.message());
    }

    @Test
    void rollbackAutomaticWritesTheLastProvenBuildBackAsANewerWrite() {
        ImagePromotionPlan.Advance plan = failingInStaging("Automatic");
        assertEquals(1, plan.promotedImages().size());
        PromotedImageWrite w = plan.promotedImages().get(0);
        assertEquals(B0.image(), w.status().latestImage());
        assertEquals(6L, w.status().buildCounter(), "newer to the stage's rollouts, which never go backwards");
        StageStatus staging = plan.status().stage("staging");
        assertEquals(StagePhase.RolledBack, staging.phase());
        assertEquals(B1.image(), staging.lastFailed());
        assertEquals(PromotionReplies.ROLLED_BACK, plan.reply().reason());
    }

    @Test
    void aBuildThatFailedInAStageIsNeverWrittenThereAgain() {
        StageStatus rolledBack = new StageStatus("staging", B0.image(), B0.buildCounter(), StagePhase.RolledBack,
                NOW.minusSeconds(30), B0.image(), B0.buildCounter(), B1.image(), null, null);
        ImagePromotionView p = promotion("Automatic", stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900),
                B1), rolledBack, StageStatus.empty("prod")));
        ImagePromotionPlan.Advance plan = assertInstanceOf(ImagePromotionPlan.Advance.class, planner.plan(request(p, source(8),
                view("dev", null, running(B1, 900), null), view("staging", promoted(B0, 6), running(B0, 20), null),
                null, null)));
        assertEquals(List.of(), plan.promotedImages());
        assertEquals(null, plan.status(), "nothing changed: the failed build stays out");
    }
}
