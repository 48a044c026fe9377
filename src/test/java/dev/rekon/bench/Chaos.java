package dev.rekon.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalRegistry;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A model-based chaos run of image rollouts. Each kpack Image gets builds 1..n; every build is posted one to
 * three times, shuffled within a window (late and duplicate events), by concurrent workers that redeliver on
 * 5xx as Knative does, while the apiserver the application talks to is killed and restarted and the registry
 * is stopped and started. The model says each Deployment ends on its Image's highest build; a watch through
 * the other apiserver sees every Deployment version, so any step backwards is counted as a rollback.
 */
public final class Chaos {

    /**
     * How big the run is. A share {@code dropShare} of the events is never delivered (a Broker that gave up), and
     * a {@code dev.rekon.resync} is posted every {@code resyncEveryMillis} (0: never) and once at the end, so the
     * final state rests on the resync where events were lost.
     */
    public record Plan(int images, int buildsPerImage, int concurrency, int apiServerKills, long downMillis,
            long seed, double dropShare, long resyncEveryMillis) {
    }

    /** What the run saw; {@link #ok()} when nothing was lost, nothing went back and 5xx came only during outages. */
    public record Result(int events, int lateRedeliveries, int deliveries, int lostChanges, int rollbacks, int fiveXxDuringOutage,
            int fiveXxOtherwise, int undelivered, int apiServerKills, int registryStops, int staleStatuses,
            int statusRollbacks, int dropped, int resyncs, List<String> unexpected) {

        public boolean ok() {
            return lostChanges == 0 && rollbacks == 0 && fiveXxOtherwise == 0 && undelivered == 0 && staleStatuses == 0
                    && statusRollbacks == 0;
        }

        public String summary() {
            return String.format("events %d and %d late redeliveries (deliveries %d, %d dropped, %d resyncs), apiserver "
                    + "kills %d, registry stops %d: lost changes %d, rollbacks %d, 5xx during outages %d, 5xx otherwise "
                    + "%d, undelivered %d; ImageDeploy statuses not reporting the last build %d, status rollbacks %d",
                    events, lateRedeliveries, deliveries, dropped, resyncs, apiServerKills, registryStops, lostChanges,
                    rollbacks, fiveXxDuringOutage, fiveXxOtherwise, undelivered, staleStatuses, statusRollbacks);
        }
    }

    /** How long the status reports written after the replies may take to land once the load is over. */
    static final long STATUS_SETTLE_MILLIS = 90_000;

    /** After a dependency is back, requests already in flight may still fail for this long. */
    static final long GRACE_MILLIS = 3_000;

    private final KubernetesClient checker;
    private final Poster poster;
    private final SecondApiServer apiServer;
    private final LocalRegistry registry;
    private final List<long[]> outages = new CopyOnWriteArrayList<>();
    private volatile long outageSince = -1;

    public Chaos(KubernetesClient checker, Poster poster, SecondApiServer apiServer, LocalRegistry registry) {
        this.checker = checker;
        this.poster = poster;
        this.apiServer = apiServer;
        this.registry = registry;
    }

    record Event(int image, long build, boolean manual) {
    }

    public Result run(String ns, Plan plan) throws Exception {
        Random random = new Random(plan.seed());
        Kpack.namespace(checker, ns);
        String[] uids = new String[plan.images()];
        for (int i = 0; i < plan.images(); i++) {
            uids[i] = Kpack.built(checker, ns, "img-" + i, Poster.digest("r/img-" + i, 0), 0).getMetadata().getUid();
            Bench.imageDeploy(checker, ns, "app-" + i, "img-" + i, "app-" + i);
        }
        List<Event> events = events(plan, random);
        List<String> unexpected = new CopyOnWriteArrayList<>();
        DeploymentBuilds deployments = DeploymentBuilds.watch(checker, ns, unexpected);
        StatusBuilds statuses = StatusBuilds.watch(checker, ns, unexpected);
        ConcurrentLinkedQueue<Event> queue = new ConcurrentLinkedQueue<>(events);
        AtomicInteger deliveries = new AtomicInteger();
        AtomicInteger during = new AtomicInteger();
        AtomicInteger otherwise = new AtomicInteger();
        AtomicInteger undelivered = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        AtomicBoolean disrupting = new AtomicBoolean(true);
        AtomicInteger lateRedeliveries = new AtomicInteger();
        int[] disruptions = new int[2];
        Thread chaos = new Thread(() -> {
            disrupt(plan, random, done, disruptions);
            disrupting.set(false);
        }, "chaos");
        chaos.start();
        AtomicInteger dropped = new AtomicInteger();
        AtomicInteger resyncs = new AtomicInteger();
        long[] reported = new long[plan.images()];
        Thread resyncer = new Thread(() -> resyncs(ns, plan, done, resyncs, during, otherwise, unexpected), "resyncs");
        resyncer.start();
        Load.run(plan.concurrency(), 1, (w, x) -> {
            var r = java.util.concurrent.ThreadLocalRandom.current();
            // Once the plan's events are out, late redeliveries keep the load on until every disruption happened.
            for (Event e; (e = queue.poll()) != null || (disrupting.get() && (e = late(plan, lateRedeliveries)) != null);) {
                report(ns, e, reported);
                if (r.nextDouble() < plan.dropShare()) {
                    dropped.incrementAndGet();
                } else if (!deliver(ns, e, uids[e.image()], deliveries, during, otherwise, unexpected)) {
                    undelivered.incrementAndGet();
                }
            }
            return true;
        });
        done.set(true);
        chaos.join();
        resyncer.join();
        if (plan.resyncEveryMillis() > 0) {
            finalResync(ns, resyncs, during, otherwise, unexpected);
        }
        int lost = 0;
        for (int i = 0; i < plan.images(); i++) {
            Deployment d = checker.apps().deployments().inNamespace(ns).withName("app-" + i).get();
            long build = d == null ? -1 : Poster.buildOf(d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
            if (build != plan.buildsPerImage()) {
                lost++;
                unexpected.add("app-" + i + " runs build " + build + ", the model says " + plan.buildsPerImage());
            }
        }
        deployments.close();
        int stale = statuses.awaitAll(plan.images(), plan.buildsPerImage(), STATUS_SETTLE_MILLIS);
        statuses.close();
        return new Result(events.size(), lateRedeliveries.get(), deliveries.get(), lost, deployments.rollbacks(), during.get(), otherwise.get(),
                undelivered.get(), disruptions[0], disruptions[1], stale, statuses.rollbacks(), dropped.get(),
                resyncs.get(), unexpected);
    }

    /** Acts as kpack: the Image's status reports the newest build an event is about, before the event is sent. */
    private void report(String ns, Event e, long[] reported) {
        synchronized (reported) {
            if (e.build() > reported[e.image()]) {
                reported[e.image()] = e.build();
                Kpack.built(checker, ns, "img-" + e.image(), Poster.digest("r/img-" + e.image(), e.build()), e.build());
            }
        }
    }

    private void resyncs(String ns, Plan plan, AtomicBoolean done, AtomicInteger count, AtomicInteger during,
            AtomicInteger otherwise, List<String> unexpected) {
        while (plan.resyncEveryMillis() > 0 && !done.get()) {
            SecondApiServer.sleep(plan.resyncEveryMillis());
            resync(ns, count, during, otherwise, unexpected);
        }
    }

    /**
     * The resync at the end stands for the PingSource's next passes: one that could not do a key (the last restart's
     * apiserver still loading its CRDs) says so ({@code PartlyFailed}) and the pass after retries it, as the README
     * says of every pass. Repeated a second apart until a pass does every key, at most 30 times.
     */
    private void finalResync(String ns, AtomicInteger count, AtomicInteger during, AtomicInteger otherwise,
            List<String> unexpected) {
        for (int pass = 0; pass < 30; pass++) {
            Poster.Answer a = resync(ns, count, during, otherwise, unexpected);
            if (a == null) {
                unexpected.add("the final resync was not answered");
                return;
            }
            if (!a.body().contains("PartlyFailed")) {
                return;
            }
            SecondApiServer.sleep(1000);
        }
        unexpected.add("30 resyncs after the run each failed a key");
    }

    /** Posts a resync of the namespace's rollouts, redelivered on 5xx as Knative would (bounded); null if never 200. */
    private Poster.Answer resync(String ns, AtomicInteger count, AtomicInteger during, AtomicInteger otherwise,
            List<String> unexpected) {
        for (int attempt = 0; attempt < 60; attempt++) {
            long sent = System.currentTimeMillis();
            Poster.Answer a = poster.event("dev.rekon.resync", Map.of(),
                    "{\"scope\":\"rollouts\",\"namespace\":\"" + ns + "\"}");
            count.incrementAndGet();
            if (a.status() == 200) {
                return a;
            }
            if (a.status() >= 500 || a.status() == 0) {
                (duringOutage(sent, System.currentTimeMillis()) ? during : otherwise).incrementAndGet();
                if (!duringOutage(sent, System.currentTimeMillis())) {
                    unexpected.add("resync: " + a.status() + " outside an outage: " + a.body());
                }
            } else {
                unexpected.add("resync: " + a.status() + ": " + a.body());
                return null;
            }
            SecondApiServer.sleep(1000);
        }
        return null;
    }

    /** A redelivery of an earlier build of a random Image, as an ApiServerSource resends one. */
    static Event late(Plan plan, AtomicInteger count) {
        count.incrementAndGet();
        var r = java.util.concurrent.ThreadLocalRandom.current();
        return new Event(r.nextInt(plan.images()), 1 + r.nextLong(plan.buildsPerImage()), r.nextInt(4) == 0);
    }

    /** Every build one to three times, shuffled within windows of 8 so that late events are common. */
    static List<Event> events(Plan plan, Random random) {
        List<Event> all = new ArrayList<>();
        for (long b = 1; b <= plan.buildsPerImage(); b++) {
            for (int i = 0; i < plan.images(); i++) {
                int copies = 1 + random.nextInt(3);
                for (int c = 0; c < copies; c++) {
                    all.add(new Event(i, b, random.nextInt(4) == 0));
                }
            }
        }
        for (int from = 0; from < all.size(); from += 8) {
            Collections.shuffle(all.subList(from, Math.min(all.size(), from + 8)), random);
        }
        return all;
    }

    private boolean deliver(String ns, Event e, String uid, AtomicInteger deliveries, AtomicInteger during,
            AtomicInteger otherwise, List<String> unexpected) {
        String image = "img-" + e.image();
        String ref = Poster.digest("r/" + image, e.build());
        for (int attempt = 0; attempt < 200; attempt++) {
            long sent = System.currentTimeMillis();
            Poster.Answer a = e.manual()
                    ? poster.event("dev.rekon.image.built", Map.of(), "{\"namespace\":\"" + ns + "\",\"image\":\"" + image
                            + "\",\"latestImage\":\"" + ref + "\",\"buildNumber\":" + e.build() + "}")
                    : poster.event("dev.knative.apiserver.resource.update", Poster.image(ns, image),
                            Poster.imageObject(ns, image, ref, e.build(), uid));
            deliveries.incrementAndGet();
            if (a.status() == 200) {
                if (a.body().contains("\"rejected\"")) {
                    unexpected.add("rejected: " + a.body());
                }
                return true;
            }
            if (a.status() >= 500 || a.status() == 0) {
                if (duringOutage(sent, System.currentTimeMillis())) {
                    during.incrementAndGet();
                } else {
                    otherwise.incrementAndGet();
                    unexpected.add(a.status() + " outside an outage: " + a.body());
                }
            } else {
                unexpected.add(a.status() + ": " + a.body());
                return false;
            }
            SecondApiServer.sleep(Math.min(1000, 50L << Math.min(attempt, 4)));
        }
        return false;
    }

    private boolean duringOutage(long from, long to) {
        long since = outageSince;
        if (since >= 0 && since <= to) {
            return true;
        }
        for (long[] o : outages) {
            if (from <= o[1] + GRACE_MILLIS && to >= o[0]) {
                return true;
            }
        }
        return false;
    }

    private void disrupt(Plan plan, Random random, AtomicBoolean done, int[] counts) {
        for (int k = 0; k < plan.apiServerKills() && !done.get(); k++) {
            SecondApiServer.sleep(500 + random.nextInt(1500));
            if (done.get()) {
                break;
            }
            outageSince = System.currentTimeMillis();
            apiServer.kill();
            counts[0]++;
            SecondApiServer.sleep(plan.downMillis());
            apiServer.launch();
            outages.add(new long[] {outageSince, System.currentTimeMillis()});
            outageSince = -1;
            if (registry != null && !done.get()) {
                // The rollout path does not read the registry: stopping it must cost no 5xx at all.
                registry.stop();
                counts[1]++;
                SecondApiServer.sleep(plan.downMillis());
                registry.launch();
            }
        }
    }
}
