package dev.rekon.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Safe replicas, end to end: three packaged Rekon processes against one apiserver, Image events spread over them
 * at random with duplicates and reordering (as Knative spreads them over replicas), one process SIGKILLed and
 * started again mid-run. Then the last builds' events go to one process that is SIGKILLed right after its
 * replies, before its status reports (held by a long report interval) are written: the next start's resync must
 * write them. Every Deployment and every ImageDeploy status must end on its Image's last build, and a watch must
 * see no Deployment go back.
 */
public final class Replicas {

    /** What the run saw. */
    public record Result(int events, int deliveries, int kills, int lostChanges, int rollbacks, int staleStatuses,
            int statusRollbacks, List<String> unexpected) {

        public boolean ok() {
            return lostChanges == 0 && rollbacks == 0 && staleStatuses == 0 && statusRollbacks == 0 && unexpected.isEmpty();
        }

        public String summary() {
            return String.format("%d events (%d deliveries) over 3 processes, %d SIGKILLs: lost changes %d, rollbacks %d,"
                    + " ImageDeploy statuses not on the last build %d, status rollbacks %d", events, deliveries, kills,
                    lostChanges, rollbacks, staleStatuses, statusRollbacks);
        }
    }

    static final String[] PROPERTIES = { "rekon.rollouts.status-report-interval=3s", "rekon.resync.on-start=true" };

    private final LocalCluster cluster;
    private final Path project;
    private final Path out;
    private final List<Proc> apps = new CopyOnWriteArrayList<>();

    /** One Rekon process and the poster that sends it events. */
    private record Proc(App app, Poster poster) {
    }

    public Replicas(LocalCluster cluster, Path project, Path out) {
        this.cluster = cluster;
        this.project = project;
        this.out = out;
    }

    public Result run(String ns, int images, int builds, long seed) throws Exception {
        KubernetesClient k8s = cluster.adminClient();
        Random random = new Random(seed);
        Kpack.namespace(k8s, ns);
        String[] uids = new String[images];
        for (int i = 0; i < images; i++) {
            uids[i] = Kpack.built(k8s, ns, "img-" + i, Poster.digest("r/img-" + i, 0), 0).getMetadata().getUid();
            Bench.imageDeploy(k8s, ns, "app-" + i, "img-" + i, "app-" + i);
        }
        for (int p = 0; p < 3; p++) {
            apps.add(start(p));
        }
        List<String> unexpected = new CopyOnWriteArrayList<>();
        DeploymentBuilds deployments = DeploymentBuilds.watch(k8s, ns, unexpected);
        StatusBuilds statuses = StatusBuilds.watch(k8s, ns, unexpected);
        List<Chaos.Event> events = Chaos.events(new Chaos.Plan(images, builds - 1, 0, 0, 0, seed, 0, 0), random);
        ConcurrentLinkedQueue<Chaos.Event> queue = new ConcurrentLinkedQueue<>(events);
        AtomicInteger deliveries = new AtomicInteger();
        AtomicInteger kills = new AtomicInteger();
        long[] reported = new long[images];
        int killAt = events.size() / 2;
        AtomicInteger sent = new AtomicInteger();
        Load.run(6, 1, (w, x) -> {
            for (Chaos.Event e; (e = queue.poll()) != null;) {
                report(k8s, ns, e.image(), e.build(), reported);
                if (sent.incrementAndGet() == killAt) {
                    restartOne(random.nextInt(apps.size()), kills);
                }
                deliver(ns, e, uids[e.image()], -1, deliveries, unexpected);
            }
            return true;
        });
        // The last build of every Image goes to one process, killed before its status reports are written.
        for (int i = 0; i < images; i++) {
            report(k8s, ns, i, builds, reported);
            deliver(ns, new Chaos.Event(i, builds, false), uids[i], 0, deliveries, unexpected);
        }
        restartOne(0, kills);
        int lost = 0;
        for (int i = 0; i < images; i++) {
            Deployment d = k8s.apps().deployments().inNamespace(ns).withName("app-" + i).get();
            long build = d == null ? -1 : Poster.buildOf(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
            if (build != builds) {
                lost++;
                unexpected.add("app-" + i + " runs build " + build + ", the model says " + builds);
            }
        }
        int stale = statuses.awaitAll(images, builds, Chaos.STATUS_SETTLE_MILLIS);
        deployments.close();
        statuses.close();
        apps.forEach(p -> p.app().stop());
        return new Result(events.size() + images, deliveries.get(), kills.get(), lost, deployments.rollbacks(), stale,
                statuses.rollbacks(), unexpected);
    }

    private Proc start(int p) {
        App app = App.start(project, cluster.kubeconfigFile(), out.resolve("rekon-" + p + "-" + System.nanoTime() + ".log"),
                PROPERTIES);
        Poster poster = new Poster(app.port());
        while (poster.event("dev.rekon.image.built", Map.of(), "{}").status() != 400) {
            if (!app.isAlive()) {
                throw new IllegalStateException("a Rekon process exited; see its log in " + out);
            }
            SecondApiServer.sleep(100);
        }
        return new Proc(app, poster);
    }

    /** SIGKILLs process {@code p} (no shutdown hook runs, queued status reports die with it) and starts another. */
    private synchronized void restartOne(int p, AtomicInteger kills) {
        App victim = apps.get(p).app();
        ProcessHandle.of(victim.pid()).ifPresent(ProcessHandle::destroyForcibly);
        kills.incrementAndGet();
        apps.set(p, start(p));
    }

    /** Acts as kpack: the Image's status reports the newest build before an event about it is sent. */
    private static void report(KubernetesClient k8s, String ns, int image, long build, long[] reported) {
        synchronized (reported) {
            if (build > reported[image]) {
                reported[image] = build;
                Kpack.built(k8s, ns, "img-" + image, Poster.digest("r/img-" + image, build), build);
            }
        }
    }

    /** Posts to process {@code target} (or a random one when negative), and to another when that one is down. */
    private void deliver(String ns, Chaos.Event e, String uid, int target, AtomicInteger deliveries, List<String> unexpected) {
        String image = "img-" + e.image();
        String data = Poster.imageObject(ns, image, Poster.digest("r/" + image, e.build()), e.build(), uid);
        var r = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 100; attempt++) {
            Proc proc = apps.get(target >= 0 && attempt == 0 ? target : r.nextInt(apps.size()));
            Poster.Answer a = proc.poster().event("dev.knative.apiserver.resource.update",
                    Poster.image(ns, image), data);
            deliveries.incrementAndGet();
            if (a.status() == 200) {
                if (a.body().contains("\"rejected\"")) {
                    unexpected.add("rejected: " + a.body());
                }
                return;
            }
            SecondApiServer.sleep(100);
        }
        unexpected.add("undelivered: build " + e.build() + " of " + image);
    }
}
