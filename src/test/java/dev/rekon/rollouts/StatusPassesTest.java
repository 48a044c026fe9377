package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.rekon.pipeline.HeldKey;
import dev.rekon.registry.ImageReference;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/** When status passes run: at once for a quiet ImageDeploy, then the newest key once per interval. */
class StatusPassesTest {

    /** Records the keys whose pass ran (each answered as gone: nothing to write). */
    static final class Recording extends RolloutReconciler {
        final List<String> ran = new CopyOnWriteArrayList<>();

        @Override
        public Optional<RolloutViews> load(RolloutKey key, boolean fresh) {
            ran.add(key.name() + ":" + (key.concerned() == null ? "" : String.join(",", key.concerned())));
            return Optional.empty();
        }
    }

    /** Records the pushes whose pass ran (each answered as gone). */
    static final class RecordingPushes extends PushReconciler {
        final List<String> ran = new CopyOnWriteArrayList<>();

        @Override
        public Optional<Views> load(PushKey key, boolean fresh) {
            ran.add(key.name() + ":" + key.pushed().tag());
            return Optional.empty();
        }
    }

    final RecordingPushes pushes = new RecordingPushes();

    StatusPasses passes(Recording recording, Duration interval) {
        StatusPasses passes = new StatusPasses();
        passes.loop = RolloutServiceTest.LOOP;
        passes.rollouts = recording;
        passes.pushes = pushes;
        passes.interval = interval;
        passes.start();
        return passes;
    }

    /** Passes spaced by 30 s whose first for shop (build a) has run, and whose second (build b) waits. */
    StatusPasses secondPassWaiting(Recording recording) {
        StatusPasses passes = firstPassRan(recording);
        passes.submit(built("shop", "b"));
        return passes;
    }

    /** Passes spaced by 30 s whose first for shop (build a) has run. */
    StatusPasses firstPassRan(Recording recording) {
        StatusPasses passes = passes(recording, Duration.ofSeconds(30));
        passes.submit(built("shop", "a"));
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)));
        return passes;
    }

    static RolloutKey built(String imageDeploy, String image) {
        ImageDeployView seen = ImageDeployView.fromJson(RolloutServiceTest.json("""
                {"apiVersion": "rekon.dev/v1alpha1", "kind": "ImageDeploy", "metadata": {"name": "%s", "namespace": "team"}}
                """.formatted(imageDeploy)));
        return RolloutKey.imageBuilt(seen, new KpackImage("team", image, null, "registry.local/x:1", 1L, null, true, null));
    }

    @Test
    void aBurstBecomesTheFirstPassAndThenTheNewestKeyOnly() throws InterruptedException {
        Recording recording = new Recording();
        StatusPasses passes = passes(recording, Duration.ofSeconds(2));
        passes.submit(built("shop", "a"));
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)));
        passes.submit(built("shop", "b"));
        passes.submit(built("shop", "c"));
        passes.submit(built("cart", "d"));
        for (int i = 0; i < 500 && recording.ran.size() < 2; i++) {
            Thread.sleep(10);
        }
        assertEquals(List.of("shop:a", "cart:d"), recording.ran, "another ImageDeploy does not wait for shop's interval");
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)));
        assertEquals(List.of("shop:a", "cart:d", "shop:c"), recording.ran, "b was replaced by the newer c");
    }

    /**
     * A Deployment's change asks for a pass only when what {@code RolledOut} says changed (a rollout begun, then
     * done): each is reported at once, so that the completion a promotion waits for never waits out the interval.
     */
    @Test
    void aDeploymentsChangeIsReportedAtOnceEvenRightAfterTheLast() {
        Recording recording = new Recording();
        StatusPasses passes = passes(recording, Duration.ofSeconds(30));
        passes.follow(RolloutKey.deploymentChanged("rekon.dev", "team", "shop"));
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)));
        passes.follow(RolloutKey.deploymentChanged("rekon.dev", "team", "shop"));
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)), "the second change waited out the 30 s interval");
        assertEquals(2, recording.ran.size());
    }

    /**
     * A Deployment's change while a rollout's pass waits out its interval runs that pass now, which says
     * {@code RolledOut} too: one status write, not the change's and then the rollout's. A push's pass says no
     * {@code RolledOut}, so the change gets its own.
     */
    @Test
    void aDeploymentsChangeRunsTheWaitingPassOfARolloutInsteadOfOneOfItsOwn() {
        Recording recording = new Recording();
        StatusPasses passes = secondPassWaiting(recording);
        passes.follow(RolloutKey.deploymentChanged("rekon.dev", "team", "shop"));
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)), "the rollout's pass waited out its 30 s interval");
        assertEquals(List.of("shop:a", "shop:b"), recording.ran, "the rollout's pass alone");

        passes.submit(new PushKey("rekon.dev", "team", "cart", ImageReference.parse("registry.local/cart:1"),
                new EarlierWrite()));
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)));
        passes.submit(new PushKey("rekon.dev", "team", "cart", ImageReference.parse("registry.local/cart:2"),
                new EarlierWrite()));
        passes.follow(RolloutKey.deploymentChanged("rekon.dev", "team", "cart"));
        assertTrue(passes.loop.queue().awaitIdle(k -> !"rollouts/status-pass".equals(k.toString()),
                Duration.ofSeconds(5)));
        assertEquals(List.of("shop:a", "shop:b", "cart:"), recording.ran, "the change's own pass, at once");
        assertEquals(List.of("cart:1"), pushes.ran, "the push's waits out its interval");
        passes.stop();
        assertEquals(List.of("cart:1", "cart:2"), pushes.ran);
    }

    /**
     * The watch often shows Rekon's own patch before the patch's reply is read, so the Deployment's change asks
     * for its pass before the rollout's is queued: the rollout's takes its place, at once, not after its interval.
     */
    @Test
    void aRolloutsPassTakesThePlaceOfADeploymentsChangeThatWaitsItsTurn() throws Exception {
        Recording recording = new Recording();
        StatusPasses passes = firstPassRan(recording);
        RolloutKey rollout = built("shop", "c");
        try (HeldKey event = HeldKey.hold(passes.loop.queue(), rollout.ref())) {
            passes.follow(RolloutKey.deploymentChanged("rekon.dev", "team", "shop"));
            passes.submit(rollout);
        }
        assertTrue(passes.awaitIdle(Duration.ofSeconds(5)), "the rollout's pass waited out its 30 s interval");
        assertEquals(List.of("shop:a", "shop:c"), recording.ran, "the rollout's pass alone, with the newest build");
    }

    @Test
    void whatWaitsRunsOnShutdown() {
        Recording recording = new Recording();
        StatusPasses passes = secondPassWaiting(recording);
        passes.stop();
        assertEquals(List.of("shop:a", "shop:b"), recording.ran);
    }
}
