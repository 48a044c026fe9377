package dev.rekon.rollouts.watch;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.rekon.bench.Bench;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.testing.Await;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The resync and the event path read one watch of ImageDeploys: the pass sees the very view the event path's
 * index holds (the same object, made once when the watch delivered it), not a copy from a second watch.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class SharedWatchesTest {

    @Inject
    ResyncViews resync;

    @Inject
    ImageDeployIndex index;

    @Test
    void theResyncSeesTheEventPathsViews() {
        KubernetesClient k8s = LocalCluster.get().adminClient();
        String ns = "shared-watches";
        Kpack.namespace(k8s, ns);
        Bench.imageDeploy(k8s, ns, "one", "app", "one");
        Await.until("the event path's index holds ImageDeploy one", () -> one(index.referencing(RolloutNames.GROUP, ns,
                "app")) != null);
        Await.until("the resync sees ImageDeploy one", () -> one(resync.imageDeploys(RolloutNames.GROUP, ns)) != null);

        assertSame(one(index.referencing(RolloutNames.GROUP, ns, "app")),
                one(resync.imageDeploys(RolloutNames.GROUP, ns)), "one view, from one watch");
    }

    private static ImageDeployView one(Optional<List<ImageDeployView>> views) {
        return views.orElse(List.of()).stream().filter(v -> v.name().equals("one")).findFirst().orElse(null);
    }
}
