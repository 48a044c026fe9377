package dev.rekon.rollouts.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.rekon.rollouts.RolloutInput.ImageDeployDeleted;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;

/** Every decision about the Deployment a deleted ImageDeploy leaves behind. */
class OrphanPlannerTest {

    static final ImageDeployDeleted DELETED = new ImageDeployDeleted(RolloutNames.GROUP, "team", "shop", "uid-shop",
            "shop-web");

    static DeploymentView deployment(String ownerUid) {
        return DeploymentView.fromJson(RolloutPlannerTest.json("""
                {"metadata": {"name": "shop-web", "namespace": "team", "resourceVersion": "42",
                   "ownerReferences": [{"kind": "ImageDeploy", "name": "shop", "uid": "%s"}]}}
                """.formatted(ownerUid)));
    }

    static OrphanPlanner.Plan plan(Optional<ImageDeployView> now, Optional<DeploymentView> deployment) {
        return OrphanPlanner.plan(new OrphanPlanner.Views(DELETED, now, "shop-web", deployment));
    }

    @Test
    void anImageDeployThatExistsAgainKeepsItsDeployment() {
        ImageDeployView again = ImageDeployView.fromJson(RolloutPlannerTest.json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "shop", "namespace": "team", "uid": "uid-new"}}"""));
        OrphanPlanner.Plan plan = plan(Optional.of(again), Optional.of(deployment("uid-shop")));
        assertNull(plan.delete());
        assertEquals("ImageDeployExists", plan.reply().reason());
        assertEquals("ImageDeploy team/shop exists again (uid uid-new); its Deployment is kept", plan.reply().message());
    }

    @Test
    void aDeploymentAlreadyGoneIsNotDeletedAgain() {
        OrphanPlanner.Plan plan = plan(Optional.empty(), Optional.empty());
        assertNull(plan.delete());
        assertEquals("unchanged/NoDeployment", plan.reply().outcome().wire() + "/" + plan.reply().reason());
    }

    @Test
    void aDeploymentOfAnotherOwnerStays() {
        OrphanPlanner.Plan plan = plan(Optional.empty(), Optional.of(deployment("uid-other")));
        assertNull(plan.delete());
        assertEquals("NotOwned", plan.reply().reason());
    }

    @Test
    void anOwnedDeploymentIsDeletedGuardedByTheVersionPlannedFrom() {
        OrphanPlanner.Plan plan = plan(Optional.empty(), Optional.of(deployment("uid-shop")));
        assertEquals("shop-web", plan.delete().name());
        assertEquals("42", plan.delete().resourceVersion());
        assertEquals("applied/DeploymentDeleted", plan.reply().outcome().wire() + "/" + plan.reply().reason());
        assertEquals("deleted Deployment team/shop-web of the deleted ImageDeploy shop", plan.reply().message());
    }
}
