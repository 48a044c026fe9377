package dev.rekon.rollouts;

import static dev.rekon.rollouts.RolloutServiceTest.V1;
import static dev.rekon.rollouts.RolloutServiceTest.V2;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.rollouts.RolloutInput.ImageDeployChanged;
import dev.rekon.rollouts.RolloutInput.PromotedImageReported;
import dev.rekon.rollouts.RolloutServiceTest.World;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * Which completed rollouts a stage reports as CDEvents: each once, with the status write that records it in
 * {@code status.history}, as deployed (the first), upgraded (a build never run) or rolled back (one run before).
 */
class CdEventsServiceTest {

    /** The test as the Deployment controller: the Deployment's current generation rolled out completely. */
    static void rolledOut(World w, String key, long generation) {
        ObjectNode d = w.cluster.deployments.get(key);
        ((ObjectNode) d.get("metadata")).put("generation", generation);
        d.set("status", RolloutServiceTest.json("""
                {"observedGeneration": %d, "replicas": 1, "updatedReplicas": 1, "availableReplicas": 1}
                """.formatted(generation)));
    }

    static World staged() {
        World w = new World();
        PromotedImageRolloutTest.SIDE_BY_SIDE.accept(w);
        return w;
    }

    /** A promotion wrote the PromotedImage app (its {@code writes}-th write) with {@code image}. */
    static void promote(World w, String image, long writes) {
        w.cluster.promotedImages.put("team/app", PromotedImageRolloutTest.promoted(image, writes));
        w.handle(new PromotedImageReported("team", "app", PromotedImageRolloutTest.promoted(image, writes)));
    }

    Runnable changed(World w) {
        return () -> w.handle(new ImageDeployChanged(RolloutNames.GROUP, "team", "staged", null));
    }

    @Test
    void deployedThenUpgradedThenRolledBackEachOnce() {
        World w = staged();
        List<String> sent = w.reconcilers.cdEvents;
        promote(w, V1, 1);
        assertEquals(List.of(), sent, "nothing before the rollout completes");
        rolledOut(w, "team/staged-web", 1);
        changed(w).run();
        assertEquals(List.of("deployed " + V1 + " of team/staged"), sent);
        changed(w).run();
        assertEquals(1, sent.size(), "the same rollout is reported once");

        promote(w, V2, 2);
        rolledOut(w, "team/staged-web", 2);
        changed(w).run();
        assertEquals("upgraded " + V2 + " of team/staged", sent.get(1));

        // A promotion's rollback: the PromotedImage is written again (one up) with the older build.
        promote(w, V1, 3);
        rolledOut(w, "team/staged-web", 3);
        changed(w).run();
        changed(w).run();
        assertEquals(List.of("deployed " + V1 + " of team/staged", "upgraded " + V2 + " of team/staged",
                "rolledback " + V1 + " of team/staged"), sent);
    }
}
