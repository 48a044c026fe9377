package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.watch.ImageDeployIndex;

/**
 * Which Deployment changes ask for a status pass. The ImageDeploy here still says RolledOut True from the build
 * before, as the watch shows it while the rollout's own status pass has planned (or written) Progressing and the
 * watch has yet to deliver it: the completion that follows must not be taken as already reported.
 */
class FollowedDeploymentsTest {

    final List<String> followed = new CopyOnWriteArrayList<>();

    FollowedDeployments following(ImageDeployView shown) {
        FollowedDeployments f = new FollowedDeployments();
        f.index = new ImageDeployIndex() {
            @Override
            public Optional<ImageDeployView> seen(String group, String namespace, String name) {
                return Optional.ofNullable(shown);
            }
        };
        f.passes = new StatusPasses() {
            @Override
            public void follow(RolloutKey key) {
                followed.add(key.name());
            }
        };
        return f;
    }

    @Test
    void aCompletionRightAfterARolloutBeganIsFollowedWhateverTheStatusStillSays() {
        following(rolledOut("True", "RolloutComplete")).changed(deployment(6, 5, 0), deployment(6, 6, 1));
        assertEquals(List.of("shop"), followed);
    }

    @Test
    void aDeploymentListedAnewIsFollowedOnlyWhenItsImageDeploySaysOtherwise() {
        following(rolledOut("True", "RolloutComplete")).changed(null, deployment(6, 6, 1));
        assertEquals(List.of(), followed, "relisted, already reported");
        following(rolledOut("False", "Progressing")).changed(null, deployment(6, 6, 1));
        assertEquals(List.of("shop"), followed);
    }

    @Test
    void aChangeThatLeavesRolledOutAsItWasAsksForNothing() {
        following(null).changed(deployment(6, 6, 1), deployment(6, 6, 1));
        assertEquals(List.of(), followed);
    }

    static DeploymentView deployment(long generation, long observed, int available) {
        return DeploymentView.fromJson(RolloutServiceTest.json("""
                {"metadata": {"name": "shop", "namespace": "team", "resourceVersion": "9", "generation": %d,
                   "labels": {"app.kubernetes.io/managed-by": "rekon"},
                   "ownerReferences": [{"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "name": "shop",
                     "uid": "u", "controller": true}]},
                 "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "web", "image": "x"}]}}},
                 "status": {"observedGeneration": %d, "replicas": 1, "updatedReplicas": %d, "availableReplicas": %d}}
                """.formatted(generation, observed, available, available)));
    }

    static ImageDeployView rolledOut(String status, String reason) {
        return ImageDeployView.fromJson(RolloutServiceTest.json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy",
                 "metadata": {"name": "shop", "namespace": "team", "resourceVersion": "7"},
                 "status": {"conditions": [{"type": "RolledOut", "status": "%s", "reason": "%s",
                   "lastTransitionTime": "2026-11-27T00:00:00Z"}]}}
                """.formatted(status, reason)));
    }
}
