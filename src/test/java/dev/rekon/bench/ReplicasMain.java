package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;

/**
 * The replicas command run by {@code hack/chaos.sh} after the chaos run: {@link Replicas} with the packaged
 * application. Exits 1 on any failure. Arguments: images, builds per image (defaults 6, 30).
 */
public final class ReplicasMain {

    private ReplicasMain() {
    }

    public static void main(String[] args) throws Exception {
        int images = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int builds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Path project = SharedFiles.projectDir();
        Path out = project.resolve("target/replicas");
        Files.createDirectories(out);
        long t0 = System.nanoTime();
        Replicas.Result r = new Replicas(LocalCluster.get(), project, out)
                .run("replicas-" + Long.toHexString(System.nanoTime() & 0xffffff), images, builds, 7);
        System.out.printf("replicas (%.0f s): %s%n", (System.nanoTime() - t0) / 1e9, r.summary());
        r.unexpected().stream().limit(20).forEach(u -> System.out.println("  " + u));
        System.exit(r.ok() ? 0 : 1);
    }
}
