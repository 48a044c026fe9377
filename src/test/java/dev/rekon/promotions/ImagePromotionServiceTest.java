package dev.rekon.promotions;

import static dev.rekon.promotions.plan.Promotions.NOW;
import static dev.rekon.promotions.plan.Promotions.build;
import static dev.rekon.promotions.plan.Promotions.deploy;
import static dev.rekon.promotions.plan.Promotions.promotion;
import static dev.rekon.promotions.plan.Promotions.running;
import static dev.rekon.promotions.plan.Promotions.source;
import static dev.rekon.promotions.plan.Promotions.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.promotions.plan.Approval;
import dev.rekon.promotions.plan.Promotions;
import dev.rekon.promotions.plan.PromotionRequest;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionNames;
import dev.rekon.promotions.view.StageStatus;
import dev.rekon.promotions.view.StageView;
import dev.rekon.rollouts.CdEventsConfig;
import dev.rekon.testing.RecordingEvents;

/**
 * {@link PromotionService} over an in-memory gateway: given a promotion, its source and its stages, and an input,
 * these writes in this order and this reply, with an unreachable stage, a wrong approval and bad input.
 */
class ImagePromotionServiceTest {

    static final Build B1 = build(1);

    /** The promotion, its stages as read, and Rekon's service over them (its reschedules wait on the loop's queue). */
    static final class World {
        final InMemoryPromotions cluster = new InMemoryPromotions();
        final PromotionService service = new PromotionService();
        final RecordingEvents events = new RecordingEvents();

        World() {
            NamespaceGuard guard = NamespaceGuard.of(NamespacePolicy.parse("demo"));
            PromotionReconciler reconciler = new PromotionReconciler();
            reconciler.gateway = cluster;
            reconciler.guard = guard;
            reconciler.clock = Clock.fixed(NOW, ZoneOffset.UTC);
            cluster.events = events;
            service.loop = ReconcileLoop.of(guard);
            service.reconciler = reconciler;
            service.gateway = cluster;
            ImagePromotionView p = promotion("None", List.of(StageStatus.empty("dev"), StageStatus.empty("staging"),
                    StageStatus.empty("prod")));
            cluster.promotions.put("demo/hello", p);
            cluster.images.put("demo/hello", source(1));
            cluster.stages.put("dev", view("dev", null, running(B1, 60), null));
            cluster.stages.put("staging", view("staging", null, deploy(null, "True", "True", 3600), null));
            cluster.stages.put("prod", view("prod", null, deploy(null, "True", "True", 3600), null));
        }
    }

    private static String wire(Reply r) {
        return r.outcome().wire() + "/" + r.reason();
    }

    @Test
    void aBuildProvenInDevIsWrittenToStagingThenTheSameEventChangesNothing() {
        World w = new World();
        Reply first = w.service.changed("demo", "hello");
        assertEquals("applied/Promoted", wire(first), first.message());
        assertEquals(List.of("create PromotedImage staging " + B1.image(), "status ImagePromotion hello"),
                w.cluster.writes);
        w.cluster.writes.clear();
        Reply again = w.service.changed("demo", "hello");
        assertEquals("unchanged/UpToDate", wire(again), again.message());
        assertEquals(List.of(), w.cluster.writes);
    }

    @Test
    void eachPhaseChangeIsToldAsAnEventOnTheImagePromotionOnce() {
        World w = new World();
        w.service.changed("demo", "hello");
        String on = " ImagePromotion demo/hello";
        assertEquals(List.of("Normal Promoted" + on, "Normal Proven" + on, "Normal Promoted" + on), w.events.recorded);
        w.service.changed("demo", "hello");
        assertEquals(3, w.events.recorded.size(), "the same event again tells nothing");
    }

    @Test
    void aFailedBuildIsToldAsAWarningOnceThroughTheGateway() {
        World w = new World();
        w.service.changed("demo", "hello");
        w.cluster.stages.put("staging", view("staging", w.cluster.stages.get("staging").promotedImage(),
                deploy(B1, "False", "False", 10), null));
        assertEquals("applied/StatusUpdated", wire(w.service.changed("demo", "hello")));
        assertEquals("Warning BuildFailed ImagePromotion demo/hello", w.events.recorded.get(w.events.recorded.size() - 1));
        int told = w.events.recorded.size();
        w.service.changed("demo", "hello");
        assertEquals(told, w.events.recorded.size(), "the same failure again tells nothing");
    }

    @Test
    void aSoakingBuildAsksToBeLookedAtWhenItsSoakEnds() {
        World w = new World();
        w.cluster.stages.put("dev", view("dev", null, running(B1, 10), null));
        w.service.changed("demo", "hello");
        Duration dueIn = w.service.loop.queue().dueIn(PromotionNames.promotion("demo", "hello")).orElseThrow(
                () -> new AssertionError("no recheck waits on the queue"));
        assertTrue(dueIn.compareTo(Duration.ofSeconds(20)) > 0 && dueIn.compareTo(Duration.ofSeconds(21)) <= 0,
                "planned again a second after the 20s soak ends, not before: " + dueIn);
    }

    @Test
    void anUnreachableStageIsA503AndNothingIsWritten() {
        World w = new World();
        w.cluster.unreachable.add("staging");
        assertThrows(TransientFailureException.class, () -> w.service.changed("demo", "hello"));
        assertEquals(List.of(), w.cluster.writes);
    }

    @Test
    void aKpackImagesBuildReachesThePromotionsItIsTheSourceOf() {
        World w = new World();
        assertEquals("applied/Promoted", wire(w.service.sourceBuilt("demo", "hello")));
        assertEquals("unchanged/NoPromotions", wire(w.service.sourceBuilt("demo", "other")));
        assertEquals("unchanged/NoPromotions", wire(w.service.stageChanged("demo", "other")));
    }

    @Test
    void aStagesReportOfARolloutReachesThePromotionsListingItsImageDeployWhereverTheStageIs() {
        World w = new World();
        assertEquals("applied/Promoted", wire(w.service.stageReported("demo", "hello")));
        assertEquals("unchanged/NoPromotions", wire(w.service.stageReported("demo", "other")));
        assertEquals("unchanged/NoPromotions", wire(w.service.stageReported("elsewhere", "hello")));
    }

    @Test
    void aWrongApprovalIsRejectedAndWritesNothing() {
        World w = new World();
        Reply r = w.service.approve("demo", "hello", new Approval("prod", build(5).image()));
        assertEquals("rejected/NoApprovalWaiting", wire(r), r.message());
        assertEquals(List.of(), w.cluster.writes);
    }

    @Test
    void aPromotionInANamespaceNotAllowedIsRejectedUnread() {
        World w = new World();
        w.cluster.unreachable.add("dev");
        Reply r = w.service.changed("elsewhere", "hello");
        assertEquals("rejected/NamespaceNotAllowed", wire(r), r.message());
    }

    @Test
    void aMissingKubeconfigSecretIsRejectedWithItsReasonAndWritesOnlyTheStatus() {
        World w = new World();
        w.cluster.stages.put("staging", StageView.refused("staging", "KubeconfigSecretNotFound",
                "Secret demo/staging-kubeconfig does not exist"));
        Reply r = w.service.changed("demo", "hello");
        assertEquals("rejected/KubeconfigSecretNotFound", wire(r), r.message());
        assertTrue(r.message().contains("demo/staging-kubeconfig"), r.message());
        assertEquals(List.of("status ImagePromotion hello"), w.cluster.writes);
    }

    @Test
    void aTriggerPlansFromTheStagesWatchesWhenTheyShowTheBuildProvenAndReadsNoStage() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        assertEquals("applied/Promoted", wire(w.service.sourceBuilt("demo", "hello")));
        assertEquals(List.of(), w.cluster.liveReads);
        assertEquals(List.of("create PromotedImage staging " + B1.image(), "status ImagePromotion hello"),
                w.cluster.writes);
    }

    @Test
    void aTriggerWhoseWatchesShowNothingProvenYetReadsTheStagesOnceAndPromotes() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        // The stage's event came before its watch showed the rollout it announces.
        w.cluster.watched.put("dev", view("dev", null, deploy(null, "True", "True", 3600), null));
        assertEquals("applied/Promoted", wire(w.service.stageReported("demo", "hello")));
        assertEquals(List.of("dev", "staging", "prod"), w.cluster.liveReads);
        assertEquals(List.of("create PromotedImage staging " + B1.image(), "status ImagePromotion hello"),
                w.cluster.writes);
        assertEquals(List.of("hello"), w.cluster.sourceReads, "the stages are read again, not the source Image");
    }

    /** A world whose watches hold every stage as read, dev's ImageDeploy running no build yet. */
    static World watchesShowNothingProvenInDev() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        w.cluster.watched.put("dev", view("dev", null, deploy(null, "True", "True", 3600), null));
        return w;
    }

    @Test
    void aSourceBuildWhoseWatchesShowNothingProvenYetReadsNoStageAgain() {
        World w = watchesShowNothingProvenInDev();
        // A build announces no stage's change: what the watches show of the stages is what a read would show.
        Reply r = w.service.sourceBuilt("demo", "hello");
        assertEquals(List.of(), w.cluster.liveReads, r.message());
        assertEquals(List.of("hello"), w.cluster.sourceReads);
    }

    @Test
    void aRolloutHereWhoseWatchesShowNothingProvenYetReadsAgainOnlyTheStageHereListingIt() {
        World w = watchesShowNothingProvenInDev();
        assertEquals("applied/Promoted", wire(w.service.stageChanged("demo", "hello")));
        assertEquals(List.of("dev"), w.cluster.liveReads, "staging and prod are remote: no rollout here changed them");
        assertEquals(List.of("create PromotedImage staging " + B1.image(), "status ImagePromotion hello"),
                w.cluster.writes);
    }

    /**
     * A status this Rekon wrote (its rollouts' watch holds it at once) is a trigger whose stage here is not read
     * again when the plan from the watches writes nothing: what they show is what a read would.
     */
    @Test
    void aRolloutHereThisProcessWroteIsNotReadAgainWhenItProvesNothingYet() {
        World w = watchesShowNothingProvenInDev();
        Reply r = w.service.stageWritten("demo", "hello");
        assertEquals(List.of(), w.cluster.liveReads, r.message());
        assertEquals(List.of(), w.cluster.writes.stream().filter(s -> s.contains("PromotedImage")).toList());
    }

    /** Two triggers waiting together: a stage another announced as maybe ahead of its watch is read again. */
    @Test
    void aWrittenChangeMergedWithAnEventOfTheSameStageStillReadsIt() {
        ImagePromotionView p = new World().cluster.promotions.get("demo/hello");
        PromotionKey written = PromotionKey.written(p, Set.of("dev"));
        PromotionKey event = PromotionKey.seen(p, Set.of("dev"));
        assertEquals(Set.of("dev"), written.and(event).mayBeAhead());
        assertEquals(Set.of("dev"), event.and(written).mayBeAhead());
        assertEquals(Set.of(), written.and(written).mayBeAhead());
        assertEquals(Set.of("staging"), written.and(PromotionKey.seen(p, Set.of("staging"))).mayBeAhead());
    }

    @Test
    void aTriggerReadsAgainNoStageWhoseReadWasRefused() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        w.cluster.watched.put("staging", StageView.refused("staging", "KubeconfigSecretNotFound",
                "Secret demo/staging-kubeconfig does not exist"));
        Reply r = w.service.stageReported("demo", "hello");
        assertEquals("rejected/KubeconfigSecretNotFound", wire(r), r.message());
        assertEquals(List.of("dev"), w.cluster.liveReads, "staging's refusal came from its Secret, read a moment ago");
    }

    @Test
    void aTriggerWaitingBehindAStatusWriteOfItsPromotionPlansFromTheVersionThatWriteReturned() {
        World w = new World();
        ImagePromotionView before = w.cluster.promotions.get("demo/hello");
        w.cluster.watched.putAll(w.cluster.stages);
        w.service.changed("demo", "hello");
        String written = w.cluster.promotions.get("demo/hello").resourceVersion();
        // The trigger found the promotion in the watch before the write above landed, and waited for its turn.
        PromotionRequest r = w.service.reconciler.load(PromotionKey.seen(before, Set.of()), false).orElseThrow();
        assertEquals(written, r.promotion().resourceVersion(), "a status write guarded by an older version is a 409");
    }

    @Test
    void aTriggerReadsTheKubeconfigSecretsOnlyOfTheStagesItMayWrite() {
        World w = watchesShowNothingProvenInDev();
        // A source's build may write the first stage only (dev, in this cluster): no Secret.
        w.service.sourceBuilt("demo", "hello");
        assertEquals(List.of(), w.cluster.secretReads);
        // A rollout in dev may write dev (a rollback) and staging (a build proven in dev), not prod.
        w.service.stageChanged("demo", "hello");
        assertEquals(List.of("staging"), w.cluster.secretReads);
        w.cluster.secretReads.clear();
        // An event that is no trigger reads every remote stage's Secret.
        w.service.changed("demo", "hello");
        assertEquals(List.of("staging", "prod"), w.cluster.secretReads);
    }

    @Test
    void aStageWhoseWatchesHoldItNotIsReadSecretFirstWhetherTheTriggerMayWriteItOrNot() {
        World w = new World();
        w.cluster.watched.put("dev", w.cluster.stages.get("dev"));
        w.service.sourceBuilt("demo", "hello");
        assertEquals(List.of("staging", "prod"), w.cluster.secretReads);
    }

    /**
     * This cluster named {@code dev} in its CDEvents, and the promotion's remote stages each in an environment of
     * its own ({@code staging}, {@code prod}).
     */
    static void stagesInEnvironments(World w) {
        w.service.cdEvents = new CdEventsConfig() {
            @Override
            public Optional<URI> sink() {
                return Optional.empty();
            }

            @Override
            public String environment() {
                return "dev";
            }

            @Override
            public String source() {
                return "rekon/rollouts";
            }
        };
        ImagePromotionView p = w.cluster.promotions.get("demo/hello");
        w.cluster.promotions.put("demo/hello", Promotions.withStatus(promotion(Promotions.THREE_STAGES.replace(
                "staging-kubeconfig}}", "staging-kubeconfig}, environment: staging}").replace(
                "prod-kubeconfig}}", "prod-kubeconfig}, environment: prod}").formatted("None")), p.status()));
    }

    @Test
    void aCdEventNamingItsEnvironmentAnnouncesOnlyTheStagesDeclaredThere() {
        World w = new World();
        stagesInEnvironments(w);
        w.cluster.watched.putAll(w.cluster.stages);
        // The report came before any watch showed a rollout; dev's and prod's ImageDeploys of that name are elsewhere.
        w.cluster.watched.put("dev", view("dev", null, deploy(null, "True", "True", 3600), null));
        w.service.stageReported("demo", "hello", "staging");
        assertEquals(List.of("staging"), w.cluster.liveReads, "only the stage in the reporting environment again");
        assertEquals(List.of("staging", "prod"), w.cluster.secretReads, "staging reported; prod follows it");
    }

    @Test
    void aCdEventFromAnEnvironmentNoStageDeclaresAnnouncesEveryStageListingItsImageDeploy() {
        World w = watchesShowNothingProvenInDev();
        w.service.stageReported("demo", "hello", "staging");
        assertEquals(List.of("dev", "staging", "prod"), w.cluster.liveReads);
    }

    @Test
    void anEventThatIsNoTriggerReadsTheStagesLiveWhateverTheWatchesShow() {
        World w = new World();
        w.cluster.watched.putAll(w.cluster.stages);
        assertEquals("applied/Promoted", wire(w.service.changed("demo", "hello")));
        assertEquals(List.of("dev", "staging", "prod"), w.cluster.liveReads);
    }
}
