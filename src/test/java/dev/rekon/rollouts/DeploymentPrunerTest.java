package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;
import dev.rekon.rollouts.apply.DeploymentPruner;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.testing.RecordingEvents;

/**
 * The resync's deletes of Deployments whose ImageDeploy is gone: each guarded by the uid and resourceVersion of the
 * Deployment as the pass planned from, so one changed or replaced in between is left for the next pass.
 */
class DeploymentPrunerTest {

    final InMemoryRollouts cluster = new InMemoryRollouts();
    final RecordingEvents events = new RecordingEvents();
    final DeploymentPruner pruner = DeploymentPruner.on(cluster, events);

    static ObjectNode orphan(String uid, String resourceVersion) {
        return (ObjectNode) RolloutServiceTest.json("""
                {"apiVersion": "apps/v1", "kind": "Deployment",
                 "metadata": {"name": "shop-web", "namespace": "team", "uid": "%s", "resourceVersion": "%s",
                   "labels": {"app.kubernetes.io/managed-by": "rekon"},
                   "ownerReferences": [{"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "name": "shop",
                     "uid": "uid-shop", "controller": true}]},
                 "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "app"}]}}}}
                """.formatted(uid, resourceVersion));
    }

    List<ResyncItem> prune(ObjectNode planned) {
        return pruner.prune(List.of(), List.of(DeploymentView.fromJson(planned)), Set.of(RolloutNames.GROUP),
                ResyncScope.all());
    }

    @Test
    void theDeploymentAsPlannedIsDeleted() {
        cluster.deployments.put("team/shop-web", orphan("uid-d1", "5"));
        List<ResyncItem> items = prune(orphan("uid-d1", "5"));
        assertEquals(List.of(DeploymentPruner.PRUNED), items.stream().map(ResyncItem::result).toList());
        assertEquals(List.of("delete Deployment team/shop-web"), cluster.writes);
        assertTrue(cluster.deployments.isEmpty());
    }

    @Test
    void aDeploymentChangedSincePlannedIsNotDeleted() {
        cluster.deployments.put("team/shop-web", orphan("uid-d1", "6"));
        List<ResyncItem> items = prune(orphan("uid-d1", "5"));
        assertTrue(cluster.deployments.containsKey("team/shop-web"), "changed since the pass read it: kept");
        assertEquals(List.of("conflict"), items.stream().map(ResyncItem::result).toList(), items.toString());
        assertEquals(List.of(), events.recorded, "no Event for a delete that did not happen");
    }

    @Test
    void aDeploymentReplacedUnderTheSameNameIsNotDeleted() {
        cluster.deployments.put("team/shop-web", orphan("uid-d2", "5"));
        prune(orphan("uid-d1", "5"));
        assertTrue(cluster.deployments.containsKey("team/shop-web"), "another object of that name: kept");
    }
}
