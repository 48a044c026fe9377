package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.json.JsonObject;

/**
 * The module lifecycle figures of {@code hack/bench.sh}, on a module of N objects (default 300) in a real registry:
 * the Kyma event to every object applied, with the API calls; a converged resync (writes must be 0); an upgrade
 * that drops a tenth of the objects and changes the Deployments (object writes must be the changed objects plus
 * the deletions). Each beside a plain {@code kubectl apply --server-side} of the same manifest, in the same run.
 * A module of 30 objects is installed first, so that neither side pays for its first request.
 */
public final class ModuleBench {

    private final KubernetesClient admin;
    private final App app;
    private final Poster poster;
    private final Kubectl kubectl;
    private final String registry;
    private final java.util.List<Long> controlPlane;
    private final Map<String, Object> results = new LinkedHashMap<>();

    ModuleBench(LocalCluster cluster, App app, String registry) {
        this.admin = cluster.adminClient();
        this.app = app;
        this.poster = new Poster(app.port());
        this.kubectl = new Kubectl(cluster.kubeconfigFile());
        this.registry = registry;
        this.controlPlane = Cpu.controlPlane(admin.getMasterUrl().getPort());
    }

    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        withRegistry("module", (cluster, app, registry, out) -> new ModuleBench(cluster, app, registry).run(size, out));
    }

    /** A module driver's figures, given the cluster, the started application, the registry's host:port, the output. */
    interface Driver {
        void run(LocalCluster cluster, App app, String registry, Path out) throws Exception;
    }

    /**
     * Starts a registry of its own ({@code bench-<name>-registry}) and the packaged application as the module figures
     * want it (no start-up resync, cluster-scoped objects allowed; its log {@code target/bench/rekon-<name>s.log}),
     * runs the driver, stops both and exits: 1 when the driver failed.
     */
    static void withRegistry(String name, Driver driver) throws Exception {
        Path out = SharedFiles.projectDir().resolve("target/bench");
        Files.createDirectories(out);
        LocalCluster cluster = LocalCluster.get();
        LocalRegistry registry = LocalRegistry.start(LocalRegistry.Options.plain("bench-" + name + "-registry"));
        App app = App.start(SharedFiles.projectDir(), cluster.kubeconfigFile(), out.resolve("rekon-" + name + "s.log"),
                "rekon.resync.on-start=false", "rekon.cluster-scoped=true");
        int code = 0;
        try {
            driver.run(cluster, app, registry.hostPort(), out);
        } catch (Exception | Error e) {
            e.printStackTrace();
            code = 1;
        } finally {
            app.stop();
            registry.stop();
        }
        System.exit(code);
    }

    void run(int size, Path out) throws Exception {
        while (poster.event("dev.rekon.image.built", Map.of(), "{}").status() != 400) {
            SecondApiServer.sleep(100);
        }
        BenchModule warm = new BenchModule("benchwarm", "bench-kcp-warm", 30);
        install(warm, "bench-warm", out);
        kubectl.applyServerSide(manifest(warm, "bench-kubectl-warm", BenchModule.V1, out));

        BenchModule m = new BenchModule("benchmodule", "bench-kcp", size);
        String target = "bench-module";
        String plain = "bench-kubectl";
        Figure install = install(m, target, out);
        Plain kInstall = plain(() -> kubectl.applyServerSide(manifest(m, plain, BenchModule.V1, out)));
        check(ObjectVersions.of(admin, target).size() == size - 1, "every object of the module applied");
        print("install, Kyma event → all " + size + " objects applied", install, kInstall, "—");
        Plain quiet = plain(() -> kubectl.quiet().applyServerSide(manifest(m, plain + "-quiet", BenchModule.V1, out)));
        System.out.printf("| … kubectl install without its request log: time; CPU; apiserver + etcd CPU | %.0f ms; %.0f"
                + " ms; %.0f ms | |%n", quiet.run().millis(), quiet.run().cpuMillis(), quiet.serverCpuMillis());

        ObjectVersions before = ObjectVersions.of(admin, target);
        Figure resync = measure(() -> post("dev.rekon.resync", Map.of(), "{\"scope\":\"kymas\",\"namespace\":\""
                + m.kcp + "\"}"), "unchanged");
        int changed = ObjectVersions.of(admin, target).changedSince(before);
        ObjectVersions kBefore = ObjectVersions.of(admin, plain);
        Plain kAgain = plain(() -> kubectl.applyServerSide(manifest(m, plain, BenchModule.V1, out)));
        print("converged resync (Rekon) / the same apply again (kubectl); objects changed " + changed + " / "
                + ObjectVersions.of(admin, plain).changedSince(kBefore), resync, kAgain, "0 writes");
        check(resync.writes() == 0 && changed == 0, "a converged resync writes nothing");

        upgrade(m, target, plain, out);
        Files.writeString(out.resolve("modules.json"), new JsonObject(results).encodePrettily());
    }

    private void upgrade(BenchModule m, String target, String plain, Path out) throws Exception {
        ObjectVersions before = ObjectVersions.of(admin, target);
        ObjectNode meta = m.channel(admin, BenchModule.V2);
        Figure upgrade = measure(() -> post("dev.knative.apiserver.resource.update", Map.of("kind", "ModuleReleaseMeta",
                "name", m.module, "namespace", m.kcp), meta.toString()), "applied");
        ObjectVersions after = ObjectVersions.of(admin, target);
        int expected = m.deployments() + m.dropped();
        ObjectVersions kBefore = ObjectVersions.of(admin, plain);
        // kubectl's --prune does not work with --server-side: apply the new manifest, then delete what it dropped.
        Path dropped = Files.writeString(out.resolve(plain + "-dropped.yaml"), m.dropped(plain));
        Plain kUpgrade = plain(() -> kubectl.applyServerSide(manifest(m, plain, BenchModule.V2, out))
                .then(kubectl.delete(dropped)));
        ObjectVersions kAfter = ObjectVersions.of(admin, plain);
        print("upgrade dropping " + m.dropped() + " objects, changing " + m.deployments() + "; objects changed + deleted "
                + after.changedSince(before) + " + " + after.deletedSince(before) + " (Rekon) / "
                + kAfter.changedSince(kBefore) + " + " + kAfter.deletedSince(kBefore) + " (kubectl)", upgrade, kUpgrade,
                expected + " object writes");
        check(upgrade.objectWrites() == expected, "upgrade object writes = changed + deleted (" + expected + ")");
    }

    private Figure install(BenchModule m, String target, Path out) throws Exception {
        m.prepare(admin, registry, target);
        m.kyma(admin, true);
        return measure(() -> m.kymaEvent(poster), "applied");
    }

    private Path manifest(BenchModule m, String namespace, String version, Path out) throws Exception {
        return Files.writeString(out.resolve(namespace + "-" + version + ".yaml"), m.yaml(namespace, version));
    }

    /** One timed input: wall time until the reply, Rekon's CPU, apiserver + etcd CPU, and Rekon's API calls by kind. */
    record Figure(double millis, double cpuMillis, double serverCpuMillis, Map<String, Double> calls) {
        double total() {
            return calls.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        double writes() {
            return calls.entrySet().stream().filter(e -> !e.getKey().startsWith("GET ")).mapToDouble(Map.Entry::getValue)
                    .sum();
        }

        /**
         * Writes of the module's objects (server-side applies and deletes), not of its inventory (PUT/POST of its
         * ConfigMap), the Kyma's status or Events.
         */
        double objectWrites() {
            return calls.entrySet().stream().filter(e -> e.getKey().matches("(PATCH|DELETE) .*")
                    && !e.getKey().contains("kymas")).mapToDouble(Map.Entry::getValue).sum();
        }
    }

    private Figure measure(java.util.function.Supplier<Poster.Answer> input, String outcome) {
        Map<String, Double> before = ApiCalls.read(poster);
        double cpu0 = Cpu.millis(app.pid());
        double server0 = Cpu.millis(controlPlane);
        long t0 = System.nanoTime();
        Poster.Answer a = input.get();
        double millis = (System.nanoTime() - t0) / 1e6;
        double server = Cpu.millis(controlPlane) - server0;
        check(a.status() == 200 && a.body().contains("\"outcome\":\"" + outcome + "\""), "answer " + a.status() + " "
                + a.body());
        double cpu = Cpu.millis(app.pid()) - cpu0;
        return new Figure(millis, cpu, server, new TreeMap<>(ApiCalls.perEvent(before, ApiCalls.read(poster), 1)));
    }

    /** A kubectl run, and the apiserver + etcd CPU it cost. */
    record Plain(Kubectl.Run run, double serverCpuMillis) {
    }

    interface KubectlCall {
        Kubectl.Run run() throws Exception;
    }

    private Plain plain(KubectlCall call) throws Exception {
        double server0 = Cpu.millis(controlPlane);
        Kubectl.Run run = call.run();
        return new Plain(run, Cpu.millis(controlPlane) - server0);
    }

    private Poster.Answer post(String type, Map<String, String> extensions, String data) {
        return poster.event(type, extensions, data);
    }

    private void print(String what, Figure f, Plain p, String target) {
        Kubectl.Run k = p.run();
        System.out.printf("| %s: Rekon / kubectl: time; client CPU; apiserver + etcd CPU | %.0f / %.0f ms; %.0f / %.0f"
                + " ms; %.0f / %.0f ms | |%n", what, f.millis(), k.millis(), f.cpuMillis(), k.cpuMillis(),
                f.serverCpuMillis(), p.serverCpuMillis());
        System.out.printf("| … API calls, Rekon: all (writes) / kubectl: all (writes; held back by its rate limiter)"
                + " | %.0f (%.0f) / %d (%d; %d) | %s |%n", f.total(), f.writes(), k.requests(), k.writes(), k.throttled(),
                target);
        System.out.printf("| … Rekon's calls by kind | %s | |%n", f.calls());
        results.put(what, Map.of("rekon", Map.of("ms", f.millis(), "cpu_ms", f.cpuMillis(), "server_cpu_ms",
                f.serverCpuMillis(), "calls", f.calls()), "kubectl", Map.of("ms", k.millis(), "cpu_ms", k.cpuMillis(),
                "server_cpu_ms", p.serverCpuMillis(), "requests", k.requests(), "writes", k.writes(), "throttled",
                k.throttled())));
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("failed: " + what);
        }
    }
}
