package dev.rekon.bench;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.rekon.testing.Kpack;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The build each ImageDeploy's status reports (app-i for Image img-i), as a watch sees every version: a status
 * that reports an older build than it already did counts as a status rollback.
 */
final class StatusBuilds implements AutoCloseable {

    private final Map<String, Long> reported = new ConcurrentHashMap<>();
    private final AtomicInteger rollbacks = new AtomicInteger();
    private Watch watch;

    static StatusBuilds watch(KubernetesClient client, String ns, List<String> unexpected) {
        StatusBuilds s = new StatusBuilds();
        s.watch = client.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource idp) {
                long build = build(idp);
                Long before = s.reported.get(idp.getMetadata().getName());
                if (before != null && build < before) {
                    s.rollbacks.incrementAndGet();
                    unexpected.add("status of " + idp.getMetadata().getName() + " went from build " + before + " to " + build);
                }
                s.reported.merge(idp.getMetadata().getName(), build, Math::max);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
        return s;
    }

    static long build(GenericKubernetesResource idp) {
        var images = Serialization.jsonMapper().valueToTree(idp.getAdditionalProperties().get("status")).path("images");
        return images.isArray() && images.size() > 0 ? images.get(0).path("buildCounter").asLong(-1) : -1;
    }

    /** Waits, bounded, until every status reports {@code last}; how many still do not. */
    int awaitAll(int imageDeploys, long last, long timeoutMillis) throws InterruptedException {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            int stale = 0;
            for (int i = 0; i < imageDeploys; i++) {
                if (reported.getOrDefault("app-" + i, -1L) != last) {
                    stale++;
                }
            }
            if (stale == 0 || System.currentTimeMillis() > end) {
                return stale;
            }
            Thread.sleep(100);
        }
    }

    int rollbacks() {
        return rollbacks.get();
    }

    @Override
    public void close() {
        watch.close();
    }
}
