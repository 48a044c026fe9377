package dev.rekon.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The Kyma fleet figures of {@code hack/bench.sh}: K Kymas (default 100), each in a namespace of its own listing M
 * modules (default 3) of O objects each (default 10: a Namespace and ConfigMaps, {@link BenchModule}), published to
 * a real registry and installed by resync passes; then a converged pass (0 writes), D managed objects (default 100,
 * one ConfigMap of each of the first D modules) deleted by hand and the pass that creates them again, beside a raw
 * server-side-apply loop of the same D ConfigMaps (one after the other, one warm client, no reads; goal ≤ 1.5×), and
 * the converged pass after it. Arguments: Kymas, modules per Kyma, objects per module, objects deleted.
 */
public final class KymaFleetBench {

    static final String FIELD_MANAGER = "bench-raw";

    private final KubernetesClient admin;
    private final App app;
    private final Poster poster;
    private final List<BenchModule> modules = new ArrayList<>();

    KymaFleetBench(KubernetesClient admin, App app) {
        this.admin = admin;
        this.app = app;
        this.poster = new Poster(app.port());
    }

    public static void main(String[] args) throws Exception {
        int kymas = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int perKyma = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int objects = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int deleted = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        ModuleBench.withRegistry("kyma-fleet", (cluster, app, registry, out) -> new KymaFleetBench(
                cluster.adminClient(), app).run(registry, kymas, perKyma, objects, deleted));
    }

    void run(String registry, int kymas, int perKyma, int objects, int deleted) throws Exception {
        while (poster.event("dev.rekon.image.built", Map.of(), "{}").status() != 400) {
            SecondApiServer.sleep(100);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> published = new ArrayList<>();
        for (int k = 0; k < kymas; k++) {
            String kcp = "kf-" + k;
            List<BenchModule> own = new ArrayList<>();
            for (int j = 0; j < perKyma; j++) {
                own.add(new BenchModule("fleet-" + letters(k) + "-" + letters(j), kcp, objects));
            }
            modules.addAll(own);
            published.add(pool.submit(() -> {
                admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(kcp).endMetadata()
                        .build()).serverSideApply();
                for (BenchModule m : own) {
                    m.publish(admin, registry, target(m), BenchModule.V1);
                    m.channel(admin, BenchModule.V1);
                }
                kyma(kcp, own);
                return null;
            }));
        }
        for (Future<?> f : published) {
            f.get();
        }
        pool.shutdown();
        System.out.printf("[bench] %d Kymas × %d modules × %d objects published; %s%n", kymas, perKyma, objects,
                ResyncBench.load());
        long t0 = System.nanoTime();
        for (int pass = 1; !resync().body().contains("\"outcome\":\"unchanged\""); pass++) {
            System.out.printf("[bench] kymas pass %d installing (%.0f s)%n", pass, (System.nanoTime() - t0) / 1e9);
        }
        System.out.printf("[bench] installed after %.0f s; %s%n", (System.nanoTime() - t0) / 1e9, ResyncBench.load());
        Figure converged = measure();
        row("converged pass", converged, 0);

        List<BenchModule> hit = modules.subList(0, Math.min(deleted, modules.size()));
        for (BenchModule m : hit) {
            admin.configMaps().inNamespace(target(m)).withName("config-0").delete();
        }
        SecondApiServer.sleep(2000); // the watches see the deletions
        Figure repair = measure();
        long back = hit.stream().filter(m -> admin.configMaps().inNamespace(target(m)).withName("config-0").get() != null)
                .count();
        row(hit.size() + " managed objects deleted by hand: the pass re-creating them (" + back + " back)", repair,
                hit.size());
        double raw = rawApplyLoop(hit);
        System.out.printf("| raw server-side-apply loop of the same %d ConfigMaps (one after the other, one warm client,"
                + " no reads) | %.0f ms; the pass took **%.2f×** (goal ≤ 1.5×) |%n", hit.size(), raw, repair.millis() / raw);
        Figure after = measure();
        row("converged pass after", after, 0);
        System.out.printf("| peak RSS of the application (VmHWM) | %.0f MiB |%n", app.peakRssMiB());
        System.out.printf("[bench] %s%n", ResyncBench.load());
    }

    /** A number as three letters or more: a Kyma module's name takes groups of at least three letters only. */
    static String letters(int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0, rest = n; i < 3 || rest > 0; i++, rest /= 26) {
            b.insert(0, (char) ('a' + rest % 26));
        }
        return b.toString();
    }

    private static String target(BenchModule m) {
        return m.kcp + "-" + m.module;
    }

    private void kyma(String kcp, List<BenchModule> own) {
        StringBuilder listed = new StringBuilder();
        own.forEach(m -> listed.append(listed.isEmpty() ? "" : ", ").append("{name: ").append(m.module).append("}"));
        admin.resource(Serialization.unmarshal("apiVersion: " + BenchModule.KYMA + "\nkind: Kyma\nmetadata: {name: "
                + "default, namespace: " + kcp + "}\nspec:\n  channel: regular\n  modules: [" + listed + "]\n",
                GenericKubernetesResource.class)).create();
    }

    /** A careful client re-creating the same objects: one server-side apply each, in turn, no GET. */
    private double rawApplyLoop(List<BenchModule> hit) {
        String ns = "kf-raw";
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                .serverSideApply();
        try (KubernetesClient raw = new KubernetesClientBuilder().withConfig(admin.getConfiguration()).build()) {
            apply(raw, ns, "warm"); // the connection, TLS and the client's own classes
            long t0 = System.nanoTime();
            hit.forEach(m -> apply(raw, ns, m.module));
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    private static void apply(KubernetesClient raw, String ns, String module) {
        raw.configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata().withName("config-0-" + module)
                .withNamespace(ns).addToLabels(BenchModule.LABEL, module).endMetadata().addToData("index", "0").build())
                .fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    }

    private Poster.Answer resync() {
        return poster.pass("kymas");
    }

    private record Figure(double millis, double cpuMillis, Map<String, Double> calls, int changed) {
        double writes() {
            return calls.entrySet().stream().filter(e -> !e.getKey().startsWith("GET "))
                    .mapToDouble(Map.Entry::getValue).sum();
        }
    }

    private Figure measure() {
        Map<String, ObjectVersions> before = versions();
        Map<String, Double> calls0 = ApiCalls.read(poster);
        double cpu0 = Cpu.millis(app.pid());
        long t0 = System.nanoTime();
        resync();
        double millis = (System.nanoTime() - t0) / 1e6;
        double cpu = Cpu.millis(app.pid()) - cpu0;
        Map<String, Double> calls = new TreeMap<>(ApiCalls.perEvent(calls0, ApiCalls.read(poster), 1));
        Map<String, ObjectVersions> after = versions();
        int changed = 0;
        for (var e : before.entrySet()) {
            ObjectVersions now = after.get(e.getKey());
            int deletedHere = now.deletedSince(e.getValue());
            int created = now.size() - e.getValue().size() + deletedHere;
            changed += now.changedSince(e.getValue()) + created + deletedHere;
        }
        return new Figure(millis, cpu, calls, changed);
    }

    private Map<String, ObjectVersions> versions() {
        Map<String, ObjectVersions> v = new TreeMap<>();
        modules.forEach(m -> v.put(target(m), ObjectVersions.of(admin, target(m))));
        return v;
    }

    private void row(String what, Figure f, int expected) {
        System.out.printf("| %d Kymas × %d modules, %s: duration / Rekon CPU | %.0f ms / %.0f ms |%n",
                modules.stream().map(m -> m.kcp).distinct().count(), modules.size() / Math.max(1,
                        modules.stream().map(m -> m.kcp).distinct().count()), what, f.millis(), f.cpuMillis());
        System.out.printf("| … **API writes** (all calls but GETs) / module objects created, changed or deleted "
                + "(expected %d) | **%.0f** / %d |%n", expected, f.writes(), f.changed());
        System.out.printf("| … Rekon's calls by kind | %s |%n", f.calls().isEmpty() ? "none" : f.calls());
    }
}
