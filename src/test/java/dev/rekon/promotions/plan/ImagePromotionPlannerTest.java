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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.core.Outcome;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;
import dev.rekon.promotions.view.VerifyJob;

/** The rules a build follows from stage to stage: proof, soak, verification, approval, order, failure, rollback. */
class ImagePromotionPlannerTest {

    private final ImagePromotionPlanner planner = new ImagePromotionPlanner();

    private static final Build B1 = build(1);
    private static final Build B2 = build(2);
    private static final Build B3 = build(3);

    private static ImagePromotionPlan.Advance advance(ImagePromotionPlan plan) {
        return assertInstanceOf(ImagePromotionPlan.Advance.class, plan);
    }

    private static StageStatus stageOf(ImagePromotionPlan.Advance plan, String name) {
        return plan.status().stage(name);
    }

    private static ImagePromotionView dev(StageStatus dev, StageStatus staging, StageStatus prod) {
        return promotion("None", stages(dev, staging, prod));
    }

    private static StageStatus empty(String name) {
        return StageStatus.empty(name);
    }

    // --- the first stage follows the kpack Image itself

    @Test
    void aNewSourceBuildEntersTheFirstStageWithNoWrite() {
        ImagePromotionPlan.Advance plan = advance(planner.plan(request(dev(empty("dev"), empty("staging"), empty("prod")),
                source(1), null, null, null, null)));
        assertEquals(List.of(), plan.promotedImages());
        StageStatus dev = stageOf(plan, "dev");
        assertEquals(StagePhase.Promoting, dev.phase());
        assertEquals(B1.image(), dev.image());
        assertEquals(Outcome.APPLIED, plan.reply().outcome());
        assertEquals("dev", plan.status().history().get(0).stage());
    }

    @Test
    void aRolledOutBuildSoaksUntilItsSoakEndsAndAsksToBeLookedAtThen() {
        ImagePromotionPlan.Advance plan = advance(planner.plan(request(dev(stage("dev", B1, StagePhase.Promoting,
                NOW.minusSeconds(60), null), empty("staging"), empty("prod")), source(1),
                view("dev", null, running(B1, 10), null), null, null, null)));
        assertEquals(StagePhase.Soaking, stageOf(plan, "dev").phase());
        assertEquals(Duration.ofSeconds(20), plan.recheckAfter());
        assertEquals(List.of(), plan.promotedImages());
    }

    @Test
    void aFirstStagesBuildNoticedLateHasSoakedSinceItSettled() {
        ImagePromotionPlan.Advance plan = advance(planner.plan(request(dev(empty("dev"), empty("staging"), empty("prod")),
                source(1), view("dev", null, running(B1, 60), null), null, null, null)));
        assertEquals(StagePhase.Proven, stageOf(plan, "dev").phase());
        assertEquals("staging", plan.promotedImages().get(0).stage());
    }

    @Test
    void anInterruptedSoakCountsFromTheLastChange() {
        ImagePromotionPlan.Advance plan = advance(planner.plan(request(dev(stage("dev", B1, StagePhase.Soaking,
                NOW.minusSeconds(100), null), empty("staging"), empty("prod")), source(1),
                view("dev", null, running(B1, 5), null), null, null, null)));
        assertEquals(StagePhase.Soaking, stageOf(plan, "dev").phase());
        assertEquals(Duration.ofSeconds(25), plan.recheckAfter());
    }

    @Test
    void aBuildNotRolledOutYetStaysPromoting() {
        ImagePromotionPlan.Advance plan = advance(planner.plan(request(dev(stage("dev", B1, StagePhase.Soaking,
                NOW.minusSeconds(100), null), empty("staging"), empty("prod")), source(1),
                view("dev", null, deploy(B1, "True", "False", 5), null), null, null, null)));
        StageStatus dev = stageOf(plan, "dev");
        assertEquals(StagePhase.Promoting, dev.phase());
        assertTrue(dev.message().contains("soak interrupted"), dev.message());
        assertNull(plan.recheckAfter());
    }

    @Test
    void aProvenBuildIsWrittenToTheNextStagesPromotedImage() {
        ImagePromotionPlan.Advance plan = advance(planner.plan(request(dev(stage("dev", B1, StagePhase.Soaking,
                NOW.minusSeconds(100), null), empty("staging"), empty("prod")), source(1),
                view("dev", null, running(B1, 60), null), null, null, null)));
        assertEquals(StagePhase.Proven, stageOf(plan, "dev").phase());
        assertEquals(B1.image(), stageOf(plan, "dev").lastProven());
        PromotedImageWrite w = plan.promotedImages().get(0);
        assertEquals(1, plan.promotedImages().size());
        assertEquals("staging", w.stage());
        assertNull(w.resourceVersion(), "created: the stage has none yet");
        assertEquals(B1.image(), w.status().latestImage());
        assertEquals(1L, w.status().buildCounter());
        assertEquals(1L, w.status().source().buildCounter());
        assertEquals("dev", w.status().source().stage());
        assertEquals("staging-kubeconfig", w.cluster().name());
        assertEquals(StagePhase.Promoting, stageOf(plan, "staging").phase());
        assertEquals(PromotionReplies.PROMOTED, plan.reply().reason());
    }

    @Test
    void theSameViewsAgainChangeNothing() {
        ImagePromotionPlan.Advance first = advance(planner.plan(request(dev(stage("dev", B1, StagePhase.Soaking,
                NOW.minusSeconds(100), null), empty("staging"), empty("prod")), source(1),
                view("dev", null, running(B1, 60), null), null, null, null)));
        ImagePromotionView after = Promotions.withStatus(first.promotion(), first.status());
        ImagePromotionPlan.Advance again = advance(planner.plan(request(after, source(1),
                view("dev", null, running(B1, 60), null), view("staging", promoted(B1, 1), running(null, 60), null),
                null, null)));
        assertEquals(List.of(), again.promotedImages());
        assertNull(again.status(), "the status says it already");
        assertEquals(Outcome.UNCHANGED, again.reply().outcome());
        assertEquals(false, again.writes());
    }

    // --- verification

    private ImagePromotionPlan.Advance stagingSoaked(VerifyJob job) {
        return advance(planner.plan(request(dev(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                stage("staging", B1, StagePhase.Soaking, NOW.minusSeconds(900), null), empty("prod")), source(1),
                view("dev", null, running(B1, 900), null), view("staging", promoted(B1, 1), running(B1, 700), job),
                null, null)));
    }

    @Test
    void aSoakedBuildStartsItsVerifyJobOnce() {
        ImagePromotionPlan.Advance plan = stagingSoaked(null);
        assertEquals(StagePhase.Verifying, stageOf(plan, "staging").phase());
        assertEquals(1, plan.verifyJobs().size());
        String name = plan.verifyJobs().get(0).name();
        assertEquals(VerifyJobs.name("hello", "staging", B1), name);
        assertEquals(B1.image(), plan.verifyJobs().get(0).image());
        ImagePromotionPlan.Advance running = stagingSoaked(new VerifyJob("demo", name, VerifyJob.State.RUNNING, null));
        assertEquals(List.of(), running.verifyJobs());
        assertEquals(StagePhase.Verifying, stageOf(running, "staging").phase());
    }

    @Test
    void aSucceededVerifyProvesTheBuildAndAManualStageWaitsNamingIt() {
        String name = VerifyJobs.name("hello", "staging", B1);
        ImagePromotionPlan.Advance plan = stagingSoaked(new VerifyJob("demo", name, VerifyJob.State.SUCCEEDED, null));
        assertEquals(StagePhase.Proven, stageOf(plan, "staging").phase());
        StageStatus prod = stageOf(plan, "prod");
        assertEquals(StagePhase.WaitingForApproval, prod.phase());
        assertEquals("approval of " + B1.image(), prod.waitingFor());
        assertEquals(List.of(), plan.promotedImages());
    }

    @Test
    void aFailedVerifyFailsTheBuild() {
        String name = VerifyJobs.name("hello", "staging", B1);
        ImagePromotionPlan.Advance plan = stagingSoaked(new VerifyJob("demo", name, VerifyJob.State.FAILED, "BackoffLimitExceeded"));
        StageStatus staging = stageOf(plan, "staging");
        assertEquals(StagePhase.Failed, staging.phase());
        assertEquals(B1.image(), staging.lastFailed());
        assertTrue(staging.message().contains("BackoffLimitExceeded"), staging.message());
        assertEquals(StagePhase.Empty, stageOf(plan, "prod").phase());
    }
}
