package dev.rekon.promotions;

import static dev.rekon.promotions.plan.Promotions.build;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

import org.junit.jupiter.api.Test;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.Reply;
import dev.rekon.promotions.ImagePromotionServiceTest.World;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.SecretKeyRef;
import dev.rekon.promotions.view.StageImageDeploy;
import dev.rekon.promotions.watch.StageSettled;
import dev.rekon.rollouts.RolloutObserved;
import dev.rekon.testing.ServedKinds;

/**
 * Which rollout notices start the promotions of a stage here: a status this process wrote that settles a build at
 * once, and then not the event an ApiServerSource sends for that very version, unless the promotions failed to take
 * the write, no promotion lists the ImageDeploy or the write settled nothing; any other version, or an event that
 * names none, always. A remote stage's watch delivering a change that settles a build starts the promotions reaching
 * that cluster, and then not that stage's CDEvent of the same rollout, unless their plan failed.
 */
class PromotionTriggersTest {

    private static final String BUILT = "create PromotedImage staging " + ImagePromotionServiceTest.B1.image();

    /** The triggers over a world's service, recording each time the service was asked, and how. */
    static final class Triggers {
        final World world = new World();
        final List<String> asked = new ArrayList<>();
        final PromotionTriggers triggers = new PromotionTriggers();

        Triggers() {
            PromotionService recording = new PromotionService() {
                @Override
                public Reply stageChanged(String namespace, String imageDeploy) {
                    asked.add(namespace + "/" + imageDeploy);
                    return world.service.stageChanged(namespace, imageDeploy);
                }

                @Override
                public Reply stageWritten(String namespace, String imageDeploy) {
                    asked.add(namespace + "/" + imageDeploy + " written");
                    return world.service.stageWritten(namespace, imageDeploy);
                }

                @Override
                public Reply stageSettledThere(String promotionNamespace, SecretKeyRef cluster, String namespace,
                        String imageDeploy) {
                    asked.add(namespace + "/" + imageDeploy + " settled in " + cluster.name());
                    return world.service.stageSettledThere(promotionNamespace, cluster, namespace, imageDeploy);
                }

                @Override
                public Reply stageReported(String namespace, String imageDeploy, String environment,
                        BiPredicate<ImagePromotionView, PromotionStage> taken) {
                    asked.add(namespace + "/" + imageDeploy + " reported from " + environment);
                    return world.service.stageReported(namespace, imageDeploy, environment, taken);
                }
            };
            triggers.service = recording;
            triggers.kinds = ServedKinds.all();
            triggers.loop = world.service.loop;
        }

        void written(String name, String version) {
            triggers.observed(RolloutObserved.statusWritten("demo", name, version));
        }

        void event(String name, String version) {
            triggers.observed(new RolloutObserved("ImageDeploy", "demo", name, version));
        }
    }

    @Test
    void aWrittenStatusThatSettlesTriggersAtOnceAndItsOwnEventThenNothing() {
        Triggers t = new Triggers();
        t.written("hello", "11");
        assertEquals(List.of("demo/hello written"), t.asked);
        assertEquals(List.of(BUILT, "status ImagePromotion hello"), t.world.cluster.writes, "promoted when written");
        t.event("hello", "11");
        assertEquals(List.of("demo/hello written"), t.asked, "the event of the version written is no trigger again");
        t.event("hello", "12");
        t.event("hello", null);
        assertEquals(List.of("demo/hello written", "demo/hello", "demo/hello"), t.asked,
                "a newer version, or none named");
    }

    @Test
    void aWrittenStatusOfARolloutUnderWayIsLeftToItsEvent() {
        Triggers t = new Triggers();
        t.world.cluster.unsettled.add("demo/hello");
        t.written("hello", "11");
        assertEquals(List.of(), t.world.cluster.writes, "nothing planned for a rollout under way");
        t.world.cluster.unsettled.clear();
        t.event("hello", "11");
        promotedByItsEvent(t);
    }

    @Test
    void aWriteThePromotionsFailedToTakeIsTriggeredAgainByItsEvent() {
        Triggers t = new Triggers();
        t.world.cluster.unreachable.add("staging");
        t.written("hello", "11");
        t.world.cluster.unreachable.clear();
        t.event("hello", "11");
        promotedByItsEvent(t);
    }

    /** The written notice did not promote; the event of the same version, asked after it, did. */
    private static void promotedByItsEvent(Triggers t) {
        assertEquals(List.of("demo/hello written", "demo/hello"), t.asked);
        assertEquals(List.of(BUILT, "status ImagePromotion hello"), t.world.cluster.writes, "the event promoted it");
    }

    @Test
    void anImageDeployNoPromotionListsIsNotRemembered() {
        Triggers t = new Triggers();
        t.written("other", "11");
        t.event("other", "11");
        assertEquals(List.of("demo/other written", "demo/other"), t.asked);
    }

    /** An ImageDeploy {@code demo/hello} proven with {@code image}, as the watch of the cluster behind {@code secret} delivers it. */
    static StageSettled settled(String secret, String image) {
        Conditions.Written ready = new Conditions.Written("Ready", "True", "Applied", null, 1L, null, null);
        Conditions.Written rolledOut = new Conditions.Written("RolledOut", "True", "RolloutComplete", null, 1L, null,
                null);
        return new StageSettled("demo", new SecretKeyRef(secret, null), new StageImageDeploy("demo", "hello", "7",
                Map.of("hello", image), ready, rolledOut, "hello"));
    }

    private static String wire(Reply r) {
        return r.outcome().wire() + "/" + r.reason();
    }

    @Test
    void aRemoteStagesWatchSettlingABuildPlansThePromotionsReachingThatClusterFromTheWatches() {
        Triggers t = new Triggers();
        t.world.cluster.watched.putAll(t.world.cluster.stages);
        t.triggers.settledThere(settled("staging-kubeconfig", ImagePromotionServiceTest.B1.image()));
        assertTrue(t.world.service.loop.queue().awaitIdle(k -> true, Duration.ofSeconds(10)));
        assertEquals(List.of("demo/hello settled in staging-kubeconfig"), t.asked, "handed to the loop's queue");
        assertEquals(List.of(BUILT, "status ImagePromotion hello"), t.world.cluster.writes);
        assertEquals(List.of(), t.world.cluster.liveReads, "planned from the watches, the stage not read again");
        assertEquals("unchanged/NoPromotions", wire(t.triggers.service.stageSettledThere("demo",
                new SecretKeyRef("other-kubeconfig", null), "demo", "hello")), "no stage is reached through it");
    }

    @Test
    void aCdEventOfTheRolloutAStageWatchDeliveredIsTakenAndPlansNothing() {
        Triggers t = new Triggers();
        ImagePromotionServiceTest.stagesInEnvironments(t.world);
        t.world.cluster.watched.putAll(t.world.cluster.stages);
        t.triggers.takeSettled(settled("staging-kubeconfig", ImagePromotionServiceTest.B1.image()));
        List<String> written = List.copyOf(t.world.cluster.writes);
        Reply r = t.triggers.reported("demo", "hello", "staging", ImagePromotionServiceTest.B1.digest());
        assertEquals("unchanged/TakenFromWatch", wire(r), r.message());
        assertEquals(written, t.world.cluster.writes);
        assertEquals(List.of(), t.world.cluster.liveReads);
        t.triggers.reported("demo", "hello", "staging", build(2).digest());
        t.triggers.reported("demo", "hello", "staging", null);
        assertEquals(List.of("staging", "staging"), t.world.cluster.liveReads,
                "another build, or none named: the stage announced is read again");
    }

    @Test
    void aCdEventOfARolloutWhoseWatchedPlanFailedIsATriggerAgain() {
        Triggers t = new Triggers();
        ImagePromotionServiceTest.stagesInEnvironments(t.world);
        t.world.cluster.unreachable.add("staging");
        t.triggers.takeSettled(settled("staging-kubeconfig", ImagePromotionServiceTest.B1.image()));
        assertEquals(List.of(), t.world.cluster.writes);
        t.world.cluster.unreachable.clear();
        assertEquals("applied/Promoted", wire(t.triggers.reported("demo", "hello", "staging",
                ImagePromotionServiceTest.B1.digest())));
    }
}
