package dev.rekon.promotions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.core.Reply;
import dev.rekon.promotions.ImagePromotionServiceTest.World;
import dev.rekon.rollouts.RolloutObserved;
import dev.rekon.testing.ServedKinds;

/**
 * Which rollout notices start the promotions of a stage here: a status this process wrote that settles a build at
 * once, and then not the event an ApiServerSource sends for that very version, unless the promotions failed to take
 * the write, no promotion lists the ImageDeploy or the write settled nothing; any other version, or an event that
 * names none, always.
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
            };
            triggers.service = recording;
            triggers.kinds = ServedKinds.all();
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
}
