package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.rollouts.plan.PrunePlanner;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.testing.RecordingEvents;

/**
 * The prune planner's table (which managed Deployment a resync deletes, and which it keeps), and its deletes
 * through the one loop: each guarded by the uid and resourceVersion of the Deployment as the pass planned from, so
 * one changed or replaced in between is left for the next pass.
 */
class PruneReconcilerTest {

    static final Set<String> GROUPS = Set.of(RolloutNames.GROUP);

    final InMemoryRollouts cluster = new InMemoryRollouts();
    final RecordingEvents events = new RecordingEvents();
    final PruneReconciler pruner = PruneReconciler.on(cluster, events);
    final ReconcileLoop loop = RolloutServiceTest.LOOP;

    static ObjectNode deployment(String uid, String resourceVersion, boolean label, String ownerApiVersion) {
        return (ObjectNode) RolloutServiceTest.json("""
                {"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "shop-web", "namespace": "team", "uid": "%s", "resourceVersion": "%s",
                   "labels": %s, "ownerReferences": %s},
                 "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "app"}]}}}}
                """.formatted(uid, resourceVersion, label ? "{\"app.kubernetes.io/managed-by\": \"rekon\"}" : "{}",
                ownerApiVersion == null ? "[]" : "[{\"apiVersion\": \"" + ownerApiVersion + "\", \"kind\": \"ImageDeploy\","
                        + " \"name\": \"shop\", \"uid\": \"uid-shop\", \"controller\": true}]"));
    }

    static ObjectNode orphan(String uid, String resourceVersion) {
        return deployment(uid, resourceVersion, true, "rekon.dev/v1alpha1");
    }

    static ImageDeployView imageDeploy(String deploymentName, boolean suspend) {
        return ImageDeployView.fromJson(RolloutServiceTest.json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "shop", "namespace": "team", "uid": "uid-shop", "resourceVersion": "3"},
                 "spec": {"suspend": %s, "deployment": {"metadata": {"name": "%s"}, "spec": {"template": {"spec":
                   {"containers": [{"name": "web", "image": "REF=app"}]}}}}}}
                """.formatted(suspend, deploymentName)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // case,             label, owner group,             ImageDeploy names, suspended, deleted, why
            "owner gone,         true,  rekon.dev/v1alpha1,       ,                 false,     true,    ImageDeployGone",
            "renamed,            true,  rekon.dev/v1alpha1,       other-web,        false,     true,    ImageDeployRenamed",
            "still named,        true,  rekon.dev/v1alpha1,       shop-web,         false,     false,   Wanted",
            "renamed+suspended,  true,  rekon.dev/v1alpha1,       other-web,        true,      false,   Suspended",
            "no ownerReference,  true,  ,                         ,                 false,     false,   NoOwner",
            "foreign group,      true,  kpush.example/v1alpha1,   ,                 false,     false,   ForeignOwner",
            "not labelled,       false, rekon.dev/v1alpha1,       ,                 false,     false,   NotManaged" })
    void decidesWhichDeploymentsGo(String name, boolean label, String ownerApiVersion, String names, boolean suspended,
            boolean deleted, String why) {
        DeploymentView d = DeploymentView.fromJson(deployment("uid-d1", "5", label, ownerApiVersion));
        Optional<ImageDeployView> owner = names == null ? Optional.empty() : Optional.of(imageDeploy(names, suspended));
        PrunePlanner.Plan plan = PrunePlanner.plan(new PrunePlanner.Views(d, d, owner, GROUPS));
        assertEquals(why, plan.why(), plan.reply().message());
        assertEquals(deleted, plan.writes());
        if (!deleted) {
            assertNull(plan.delete());
        }
    }

    Optional<ReconcileLoop.Passed> prune(ObjectNode planned) {
        return loop.pass(pruner, new PruneKey(DeploymentView.fromJson(planned), Optional.empty(), GROUPS), true);
    }

    @Test
    void theDeploymentAsPlannedIsDeleted() {
        cluster.deployments.put("team/shop-web", orphan("uid-d1", "5"));
        ReconcileLoop.Passed passed = prune(orphan("uid-d1", "5")).orElseThrow();
        assertEquals(PrunePlanner.REASON, passed.reply().reason());
        assertEquals(List.of("delete Deployment team/shop-web"), cluster.writes);
        assertTrue(cluster.deployments.isEmpty());
        assertEquals(1, events.recorded.size(), events.recorded.toString());
        assertTrue(events.recorded.get(0).startsWith("Normal DeploymentPruned"), events.recorded.toString());
    }

    @Test
    void aDeploymentChangedSincePlannedIsNotDeleted() {
        cluster.deployments.put("team/shop-web", orphan("uid-d1", "6"));
        ReconcileLoop.Passed passed = prune(orphan("uid-d1", "5")).orElseThrow();
        assertTrue(cluster.deployments.containsKey("team/shop-web"), "changed since the pass read it: kept");
        assertEquals(PrunePlanner.CHANGED, passed.reply().reason(), passed.reply().message());
        assertEquals(List.of(), events.recorded, "no Event for a delete that did not happen");
    }

    @Test
    void aDeploymentReplacedUnderTheSameNameIsNotDeleted() {
        cluster.deployments.put("team/shop-web", orphan("uid-d2", "5"));
        prune(orphan("uid-d1", "5"));
        assertTrue(cluster.deployments.containsKey("team/shop-web"), "another object of that name: kept");
    }

    @Test
    void theOwnerIsReadAgainBeforeADelete() {
        cluster.deployments.put("team/shop-web", orphan("uid-d1", "5"));
        cluster.imageDeploys.put("team/shop", (ObjectNode) RolloutServiceTest.json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "shop", "namespace": "team", "uid": "uid-shop", "resourceVersion": "3"},
                 "spec": {"deployment": {"metadata": {"name": "shop-web"}, "spec": {"template": {"spec":
                   {"containers": [{"name": "web", "image": "REF=app"}]}}}}}}"""));
        ReconcileLoop.Passed passed = prune(orphan("uid-d1", "5")).orElseThrow();
        assertTrue(passed.writes(), "the watch showed no ImageDeploy: the pass plans a delete");
        assertEquals("Wanted", passed.reply().reason(), "the apiserver has it again: kept");
        assertTrue(cluster.deployments.containsKey("team/shop-web"));
    }
}
