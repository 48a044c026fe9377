package dev.rekon.rollouts;

import static dev.rekon.rollouts.RolloutServiceTest.V1;
import static dev.rekon.rollouts.RolloutServiceTest.V2;
import static dev.rekon.rollouts.RolloutServiceTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.Reply;
import dev.rekon.rollouts.RolloutInput.ImageDeployChanged;
import dev.rekon.rollouts.RolloutInput.ImageReported;
import dev.rekon.rollouts.RolloutInput.PromotedImageReported;
import dev.rekon.rollouts.RolloutServiceTest.World;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;

/**
 * An ImageDeploy with {@code spec.refKind: PromotedImage} follows the PromotedImage its REF= names exactly as
 * others follow a kpack Image; both kinds, even of one name, side by side in one namespace, each reaching only its
 * own followers.
 */
class PromotedImageRolloutTest {

    /** {@code shop} follows the kpack Image app; {@code staged} follows the PromotedImage app. */
    static final Consumer<World> SIDE_BY_SIDE = RolloutServiceTest.SHOP.andThen(w -> w.cluster.imageDeploys.put(
            "team/staged", (ObjectNode) json("""
                    {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                     "metadata": {"name": "staged", "namespace": "team", "uid": "uid-staged", "resourceVersion": "7",
                                  "generation": 1},
                     "spec": {"refKind": "PromotedImage", "deployment": {"metadata": {"name": "staged-web"},
                       "spec": {"selector": {"matchLabels": {"app": "staged"}},
                         "template": {"metadata": {"labels": {"app": "staged"}},
                           "spec": {"containers": [{"name": "web", "image": "REF=app"}]}}}}}}
                    """)));

    static KpackImage promoted(String latest, long writes) {
        return new KpackImage("team", "app", "uid-promoted", latest, writes, null, true, null);
    }

    private static World world() {
        World w = new World();
        SIDE_BY_SIDE.accept(w);
        return w;
    }

    @Test
    void aPromotedImagesBuildRollsOutOnlyItsFollowers() {
        World w = world();
        Reply reply = w.handle(new PromotedImageReported("team", "app", promoted(V2, 1)));
        assertEquals("applied/DeploymentCreated", reply.outcome().wire() + "/" + reply.reason(), reply.message());
        assertEquals(List.of("create Deployment team/staged-web", "status ImageDeploy team/staged"), w.cluster.writes);
        assertEquals(V2, w.cluster.deployments.get("team/staged-web").path("spec").path("template").path("spec")
                .path("containers").get(0).path("image").asText());
    }

    @Test
    void aKpackImagesBuildOfTheSameNameLeavesPromotedImageFollowersAlone() {
        World w = world();
        Reply reply = w.handle(ImageReported.of(RolloutServiceTest.app(V1, 1, true)));
        assertEquals("applied", reply.outcome().wire());
        assertEquals(List.of("create Deployment team/shop-web", "status ImageDeploy team/shop"), w.cluster.writes);
    }

    @Test
    void aReferenceModeEventAndAnImageDeployEventReadThePromotedImage() {
        World w = world();
        w.cluster.promotedImages.put("team/app", promoted(V2, 3));
        w.cluster.images.put("team/app", RolloutServiceTest.app(V1, 9, true));
        Reply reply = w.handle(new PromotedImageReported("team", "app", null));
        assertEquals("applied/DeploymentCreated", reply.outcome().wire() + "/" + reply.reason(), reply.message());
        w.cluster.writes.clear();
        w.cluster.promotedImages.put("team/app", promoted(V1, 4));
        Reply changed = w.handle(new ImageDeployChanged(RolloutNames.GROUP, "team", "staged", null));
        assertEquals("applied/ImageUpdated", changed.outcome().wire() + "/" + changed.reason(), changed.message());
        assertEquals(V1, w.cluster.deployments.get("team/staged-web").path("spec").path("template").path("spec")
                .path("containers").get(0).path("image").asText(), "a rollback is a newer write, so it rolls out");
    }

    @Test
    void aPromotedImageNoOneFollowsIsAnsweredUnchanged() {
        World w = new World();
        RolloutServiceTest.SHOP.accept(w);
        Reply reply = w.handle(new PromotedImageReported("team", "app", promoted(V2, 1)));
        assertEquals("unchanged/NoImageDeploys", reply.outcome().wire() + "/" + reply.reason(), reply.message());
        assertEquals(List.of(), w.cluster.writes);
    }
}
