package dev.rekon.buildpacks;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.core.ObjectRef;
import dev.rekon.registry.DockerConfig;

/**
 * Decides which manifest HEADs a buildpacks resync pass makes: one per image and ServiceAccount (objects naming
 * the same image with the same pull secrets share it), {@value #CONCURRENCY} at a time, each ServiceAccount's
 * pull secrets read once.
 */
final class BuildpackHeads {

    static final int CONCURRENCY = 4;

    /** One HEAD's answer: the head, or the failure that stopped it. */
    record Head(ImageHead head, Throwable failure) {
    }

    private final BuildpackGateway gateway;
    private final Map<String, Optional<DockerConfig>> secrets = new ConcurrentHashMap<>();

    BuildpackHeads(BuildpackGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * Per Buildpack with a current image, its {@link ImageHead} or the failure of its HEAD; the others (no image,
     * or a status not of the current generation) get none and are refreshed without one.
     */
    Map<ObjectRef, Head> of(List<RecheckView> buildpacks) {
        ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY, r -> {
            Thread t = new Thread(r, "rekon-resync-buildpacks");
            t.setDaemon(true);
            return t;
        });
        try {
            Map<String, Future<ImageHead>> byImage = new HashMap<>();
            Map<ObjectRef, Future<ImageHead>> pending = new LinkedHashMap<>();
            buildpacks.stream().filter(b -> b.image() != null && b.current()).forEach(b -> pending.put(b.ref(),
                    byImage.computeIfAbsent(b.image() + " " + serviceAccount(b), k -> pool.submit(() -> head(b)))));
            Map<ObjectRef, Head> heads = new HashMap<>();
            pending.forEach((ref, f) -> heads.put(ref, outcome(f)));
            return heads;
        } finally {
            pool.shutdownNow();
        }
    }

    private ImageHead head(RecheckView b) {
        Optional<DockerConfig> creds = secrets.computeIfAbsent(serviceAccount(b),
                k -> gateway.pullSecrets(b.serviceAccountNamespace(), b.serviceAccountName()));
        return gateway.headDigest(b.image(), creds, b.serviceAccountNamespace(), b.serviceAccountName());
    }

    private static String serviceAccount(RecheckView b) {
        return b.serviceAccountNamespace() + "/" + b.serviceAccountName();
    }

    private static Head outcome(Future<ImageHead> f) {
        try {
            return new Head(f.get(), null);
        } catch (ExecutionException e) {
            return new Head(null, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Head(null, e);
        }
    }
}
