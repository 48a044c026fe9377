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
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;
import dev.rekon.promotions.view.VerifyJob;

/**
 * The Kubernetes Events a plan lists: one per transition it makes (entered, proven, failed, rolled back, waiting for
 * approval), Warning for a failure and a rollback, and none when the same views are planned again once its status
 * was written.
 */
class ImagePromotionEventsPlannerTest {

    private static final Build B0 = build(7);
    private static final Build B1 = build(8);
    private static final Build B2 = build(9);

    private final ImagePromotionPlanner planner = new ImagePromotionPlanner();

    private static List<String> told(ImagePromotionPlan.Advance plan) {
        return plan.events().stream().map(e -> (e.warning() ? "Warning " : "Normal ") + e.reason() + " "
                + e.message().substring(6, e.message().indexOf(':'))).toList();
    }

    /** Plans, then plans the same stage views again over the status the first plan wrote: that one tells nothing. */
    private ImagePromotionPlan.Advance once(ImagePromotionView p, Function<ImagePromotionView, PromotionRequest> views) {
        ImagePromotionPlan.Advance first = assertInstanceOf(ImagePromotionPlan.Advance.class, planner.plan(views.apply(p)));
        ImagePromotionPlan.Advance again = assertInstanceOf(ImagePromotionPlan.Advance.class,
                planner.plan(views.apply(Promotions.withStatus(p, first.status()))));
        assertEquals(List.of(), again.events(), "planned again: " + told(again));
        return first;
    }

    @Test
    void aBuildEnteringTheFirstStageIsToldOnce() {
        ImagePromotionView p = promotion("None", stages(StageStatus.empty("dev"), StageStatus.empty("staging"),
                StageStatus.empty("prod")));
        ImagePromotionPlan.Advance plan = once(p, v -> request(v, source(8), null, null, null, null));
        assertEquals(List.of("Normal Promoted dev"), told(plan));
        assertTrue(plan.events().get(0).message().contains("(build 8) entered"), plan.events().get(0).message());
    }

    @Test
    void aProvenBuildAndItsEntryIntoTheNextStageAreToldInOrder() {
        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Soaking, NOW.minusSeconds(100),
                null), StageStatus.empty("staging"), StageStatus.empty("prod")));
        ImagePromotionPlan.Advance plan = once(p, v -> request(v, source(8), view("dev", null, running(B1, 60), null),
                view("staging", promoted(B1, 1), running(null, 60), null), null, null));
        assertEquals(List.of("Normal Proven dev", "Normal Promoted staging"), told(plan));
    }

    @Test
    void aFailureIsAWarningAndARollbackAnotherOne() {
        for (String rollback : List.of("None", "Automatic")) {
            ImagePromotionView p = promotion(rollback, stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900),
                    B1), stage("staging", B1, StagePhase.Soaking, NOW.minusSeconds(60), B0), StageStatus.empty("prod")));
            ImagePromotionPlan.Advance plan = planner.plan(request(p, source(8), view("dev", null, running(B1, 900),
                    null), view("staging", promoted(B1, 5), deploy(B1, "False", "False", 10), null), null, null))
                    instanceof ImagePromotionPlan.Advance a ? a : null;
            assertEquals(rollback.equals("None") ? List.of("Warning BuildFailed staging")
                    : List.of("Warning BuildFailed staging", "Warning RolledBack staging"), told(plan), rollback);
        }
    }

    @Test
    void aBuildWaitingForApprovalIsToldOnceAndANewerOneWaitingAgain() {
        String job = VerifyJobs.name("hello", "staging", B1);
        ImagePromotionView p = promotion("None", stages(stage("dev", B1, StagePhase.Proven, NOW.minusSeconds(900), B1),
                stage("staging", B1, StagePhase.Verifying, NOW.minusSeconds(900), null), StageStatus.empty("prod")));
        ImagePromotionPlan.Advance plan = once(p, v -> request(v, source(8), view("dev", null, running(B1, 900), null),
                view("staging", promoted(B1, 1), running(B1, 700), new VerifyJob("demo", job, VerifyJob.State.SUCCEEDED,
                        null)), null, null));
        assertEquals(List.of("Normal Proven staging", "Normal WaitingForApproval prod"), told(plan));
        assertTrue(plan.events().get(1).message().contains(B1.image()), plan.events().get(1).message());

        // prod still waits for B1 when B2 is proven in staging: a newer build waits, told once more.
        String job2 = VerifyJobs.name("hello", "staging", B2);
        ImagePromotionView later = promotion("None", stages(stage("dev", B2, StagePhase.Proven, NOW.minusSeconds(900),
                B2), stage("staging", B2, StagePhase.Verifying, NOW.minusSeconds(900), B1),
                plan.status().stage("prod")));
        ImagePromotionPlan.Advance newer = once(later, v -> request(v, source(9), view("dev", null, running(B2, 900),
                null), view("staging", promoted(B2, 2), running(B2, 700), new VerifyJob("demo", job2,
                        VerifyJob.State.SUCCEEDED, null)), null, null));
        assertEquals(List.of("Normal Proven staging", "Normal WaitingForApproval prod"), told(newer));
        assertTrue(newer.events().get(1).message().contains(B2.image()), newer.events().get(1).message());
    }
}
