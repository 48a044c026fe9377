package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.SharedFiles;

/**
 * The chaos command behind {@code hack/chaos.sh}: the packaged application against a second apiserver that is
 * killed and restarted, a registry that is stopped and started, then the fuzz pass. Exits 1 on any failure.
 * Arguments: images, builds per image, apiserver kills (defaults 20, 60, 8: about 2,400 events).
 */
public final class ChaosMain {

    private ChaosMain() {
    }

    public static void main(String[] args) throws Exception {
        int images = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int builds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int kills = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        Path project = SharedFiles.projectDir();
        Path out = project.resolve("target/chaos");
        Files.createDirectories(out);
        LocalCluster cluster = LocalCluster.get();
        SecondApiServer second = SecondApiServer.start(cluster, out);
        LocalRegistry registry = LocalRegistry.start(LocalRegistry.Options.plain("chaos-registry"));
        App app = App.start(project, second.kubeconfig(), out.resolve("rekon.log"),
                "rekon.webhooks.distribution.token=test-token", "rekon.webhooks.harbor.token=harbor-test-token",
                "rekon.webhooks.quay.token=quay-test-token", "rekon.webhooks.dockerhub.token=dockerhub-test-path-token",
                "rekon.webhooks.github.hmac-secret=github-test-secret");
        Poster poster = new Poster(app.port());
        while (poster.event("dev.rekon.image.built", java.util.Map.of(), "{}").status() != 400) {
            if (!app.isAlive()) {
                throw new IllegalStateException("the application exited; see target/chaos/rekon.log");
            }
            SecondApiServer.sleep(100);
        }
        long t0 = System.nanoTime();
        Chaos.Result r = new Chaos(cluster.adminClient(), poster, second, registry)
                .run("chaos-" + Long.toHexString(System.nanoTime() & 0xffffff), new Chaos.Plan(images, builds, 16, kills, 2000, 42, 0.1, 5000));
        System.out.printf("chaos (%.0f s): %s%n", (System.nanoTime() - t0) / 1e9, r.summary());
        r.unexpected().stream().limit(20).forEach(u -> System.out.println("  " + u));
        Fuzz.Result f = new Fuzz(poster, 7).run(40);
        System.out.printf("fuzz: %d malformed requests to every endpoint, 5xx: %d%n", f.requests(), f.fiveXx());
        f.fiveXxByTarget().forEach((t, n) -> System.out.println("  5xx x" + n + ": " + t));
        f.examples().forEach(e -> System.out.println("  " + e));
        app.stop();
        registry.stop();
        second.kill();
        System.exit(r.ok() && f.fiveXx() == 0 ? 0 : 1);
    }
}
