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
 * Which rollout notices start the promotions of a stage here: a status this process wrote at once, and then not
 * the event an ApiServerSource sends for that very version, unless the promotions failed to take the write or no
 * promotion lists the ImageDeploy; any other version, or an event that names none, always.
 */
class PromotionTriggersTest {

    /** The triggers over a world's service, recording each time the service was asked. */
    static final class Triggers {
        final World world = new World();
        final List<String> asked = new ArrayList<>();
        final PromotionTriggers triggers = new PromotionTriggers();

        Triggers() {
            PromotionService recording = new PromotionService() {
                @Override
                public Reply stageChanged(String namespace, String imageDeploy, boolean written) {
                    asked.add(namespace + "/" + imageDeploy);
                    return world.service.stageChanged(namespace, imageDeploy, written);
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
    void aWrittenStatusTriggersAtOnceAndItsOwnEventThen_Nothing() {
        Triggers t = new Triggers();
        t.written("hello", "11");
        assertEquals(List.of("demo/hello"), t.asked);
        assertEquals(List.of("create PromotedImage staging " + ImagePromotionServiceTest.B1.image(),
                "status ImagePromotion hello"), t.world.cluster.writes, "promoted when written");
        t.event("hello", "11");
        assertEquals(List.of("demo/hello"), t.asked, "the event of the version written is no trigger again");
        t.event("hello", "12");
        t.event("hello", null);
        assertEquals(List.of("demo/hello", "demo/hello", "demo/hello"), t.asked, "a newer version, or none named");
    }

    @Test
    void aWriteThePromotionsFailedToTakeIsTriggeredAgainByItsEvent() {
        Triggers t = new Triggers();
        t.world.cluster.unreachable.add("staging");
        t.written("hello", "11");
        t.world.cluster.unreachable.clear();
        t.event("hello", "11");
        assertEquals(List.of("demo/hello", "demo/hello"), t.asked);
        assertEquals(List.of("create PromotedImage staging " + ImagePromotionServiceTest.B1.image(),
                "status ImagePromotion hello"), t.world.cluster.writes, "the event promoted it");
    }

    @Test
    void anImageDeployNoPromotionListsIsNotRemembered() {
        Triggers t = new Triggers();
        t.written("other", "11");
        t.event("other", "11");
        assertEquals(List.of("demo/other", "demo/other"), t.asked);
    }
}
