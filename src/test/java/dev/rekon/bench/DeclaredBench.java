package dev.rekon.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;


import dev.rekon.testing.GitWorkdir;
import dev.rekon.testing.LocalCluster;
import dev.rekon.declared.source.GitCredentials;
import dev.rekon.declared.source.GitRemote;
import dev.rekon.declared.source.JGitSource;
import dev.rekon.declared.source.SourceLimits;
import dev.rekon.testing.LocalGitServer;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.json.JsonObject;

/**
 * The declared-state figures of {@code hack/bench.sh}, on the real apiserver and a real git server, each beside
 * a plain server-side-apply loop of the same objects (fabric8, one by one, with a field manager) in the same run:
 * a push to every object applied (1, 50, 200 objects; the signed webhook to its reply); 100 DeclaredStates of 10
 * objects applied by one resync pass; a converged resync of those 100 (git fetches, ls-remotes and writes); the
 * peak RSS a 5,000-file, 50 MB repository adds to a fresh process.
 */
public final class DeclaredBench {

    static final String SECRET = "bench-git-secret";
    static final String LABEL = "rekon.dev/declared-state";
    static final String FIELD_MANAGER = "bench-raw";
    /** Which figures to make ({@code REKON_BENCH_DECLARED_PARTS}, comma-separated): push, fleet, rss; all by default. */
    static final List<String> PARTS = List.of(System.getenv().getOrDefault("REKON_BENCH_DECLARED_PARTS",
            "push,fleet,rss").split(","));
    /** Flux v2.6's published times on 2 CPUs, by Kustomizations: 100 in 28 s, 500 in 2 min 2 s, 1,000 in 4 min 16 s. */
    static final NavigableMap<Integer, Double> FLUX_KUSTOMIZATIONS_S = new TreeMap<>(
            Map.of(100, 28.0, 500, 122.0, 1000, 256.0));
    static final String INFO_REFS = "info/refs GET";
    static final String UPLOAD_PACK = "upload-pack POST";
    private static final Duration LONG = Duration.ofMinutes(15);

    private final KubernetesClient admin;
    private final LocalGitServer git;
    private final Path out;
    private final String run = UUID.randomUUID().toString().substring(0, 4);
    private final Map<String, Object> results = new LinkedHashMap<>();
    private App app;
    private Poster poster;
    private Path cacheDir;

    DeclaredBench(LocalCluster cluster, LocalGitServer git, Path out) {
        this.admin = cluster.adminClient();
        this.git = git;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        int fleet = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int bigFiles = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        Path out = SharedFiles.projectDir().resolve("target/bench");
        Files.createDirectories(out);
        DeclaredBench bench = new DeclaredBench(LocalCluster.get(), LocalGitServer.get(), out);
        int code = 0;
        try {
            bench.run(fleet, bigFiles);
        } catch (Exception | Error e) {
            e.printStackTrace();
            code = 1;
        } finally {
            if (bench.app != null) {
                bench.app.stop();
            }
        }
        System.exit(code);
    }

    void run(int fleet, int bigFiles) throws Exception {
        start("declared");
        System.out.println("| Declared state figure | Rekon | raw server-side apply loop | ratio / target |");
        System.out.println("|---|---|---|---|");
        warmUp();
        if (PARTS.contains("push")) {
            for (int n : new int[] { 1, 50, 200 }) {
                push(n);
            }
        }
        if (PARTS.contains("fleet")) {
            fleet(fleet);
        }
        app.stop();
        if (PARTS.contains("rss")) {
            start("declared-rss");
            rss(bigFiles);
        }
        Files.writeString(out.resolve("declared.json"), new JsonObject(results).encodePrettily());
    }

    private void start(String name) {
        cacheDir = out.resolve("declared-git-cache-" + run + "-" + name);
        app = App.start(SharedFiles.projectDir(), LocalCluster.get().kubeconfigFile(), out.resolve("rekon-" + name + ".log"),
                "rekon.resync.on-start=false", "rekon.webhooks.git.hmac-secret=" + SECRET,
                "rekon.declared.cache-dir=" + cacheDir);
        poster = new Poster(app.port());
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (poster.event("dev.rekon.image.built", Map.of(), "{}").status() != 400) {
            check(System.nanoTime() < deadline && app.isAlive(), "the application answers");
            SecondApiServer.sleep(100);
        }
    }

    /** Both sides' first requests paid before anything is timed: a DeclaredState of 20 objects, 20 raw applies. */
    private void warmUp() {
        Site warm = site("warm", 20);
        warm.create();
        check(warm.reconcile().body().contains("\"outcome\":\"applied\""), "the warm-up applied");
        rawLoop(warm.objects(ns("warm-raw")));
        gitFloor(warm.ns);
        warm.forget();
    }

    // ---- a push to every object applied -------------------------------------------------------------------------

    private void push(int n) {
        Site s = site("push-" + n, 0);
        s.create();
        check(s.reconcile().status() == 200, "the empty revision answered");
        s.files(n);
        String head = s.work.commitAndPush(n + " objects");
        Measure m = measure(() -> s.webhook(head), a -> a.body().contains("\"outcome\":\"applied\""));
        check(s.labelled() == n, "all " + n + " objects applied");
        String rawNs = ns("push-raw-" + n);
        double raw = rawLoop(s.objects(rawNs));
        double ratio = m.millis / raw;
        System.out.printf("| a push to all %d object(s) applied: signed webhook → reply / raw loop | %.0f ms | %.0f ms"
                + " | %.2fx / ≤ 1.5x %s |%n", n, m.millis, raw, ratio, ratio <= 1.5 ? "met" : "missed");
        System.out.printf("| … where Rekon's time goes: %s | | | |%n", m.where());
        double floor = gitFloor(s.ns);
        System.out.printf("| … the git part alone: Rekon's git source reading the same tip into an empty cache, from the bench"
                + " process | %.0f ms | | |%n", floor);
        results.put("push_" + n + "_git_ms", floor);
        s.forget();
        results.put("push_" + n, Map.of("rekon_ms", m.millis, "raw_ms", raw, "ratio", ratio, "rekon_cpu_ms", m.cpuMillis,
                "api_calls", m.calls, "api_ms", m.apiMillis, "git", m.git));
    }

    // ---- 100 DeclaredStates from one resync, then converged ----------------------------------------------------

    private void fleet(int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Site>> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = String.format("fleet-%03d", i);
            created.add(pool.submit(() -> {
                Site s = site(name, 10);
                s.create();
                return s;
            }));
        }
        List<Site> sites = new ArrayList<>();
        for (Future<Site> f : created) {
            sites.add(f.get());
        }
        pool.shutdown();

        Measure first = measure(this::resync, a -> a.status() == 200);
        int applied = sites.stream().mapToInt(Site::labelled).sum();
        check(applied == count * 10, "every object of the " + count + " DeclaredStates applied (" + applied + ")");
        String rawNs = ns("fleet-raw");
        List<ConfigMap> rawObjects = new ArrayList<>();
        sites.forEach(s -> rawObjects.addAll(s.objects(rawNs)));
        double raw = rawLoop(rawObjects);
        System.out.printf("| %d DeclaredStates of 10 objects applied by one resync pass / raw loop of the %d objects"
                + " | %.1f s | %.1f s | %.2fx; %s |%n", count, count * 10, first.millis / 1000, raw / 1000,
                first.millis / raw, flux(count));
        System.out.printf("| … where Rekon's time goes: %s | | | |%n", first.where());
        double floor = 0;
        for (Site s : sites) {
            floor += gitFloor(s.ns);
        }
        System.out.printf("| … the git part alone: Rekon's git source reading each of the %d repositories into an empty cache, one"
                + " after another, from the bench process | %.1f s | | |%n", count, floor / 1000);
        results.put("fleet_git_ms", floor);
        results.put("fleet_apply", Map.of("states", count, "rekon_ms", first.millis, "raw_ms", raw, "rekon_cpu_ms",
                first.cpuMillis, "api_calls", first.calls, "api_ms", first.apiMillis, "git", first.git));

        Map<String, String> before = versions(sites);
        Map<String, String> cacheBefore = files(cacheDir);
        Measure again = measure(this::resync, a -> a.status() == 200);
        Map<String, String> after = versions(sites);
        long writes = after.entrySet().stream().filter(e -> !e.getValue().equals(before.get(e.getKey()))).count()
                + before.keySet().stream().filter(k -> !after.containsKey(k)).count();
        Map<String, String> cacheAfter = files(cacheDir);
        long cacheChanged = cacheAfter.entrySet().stream().filter(e -> !e.getValue().equals(cacheBefore.get(e.getKey())))
                .count();
        int gets = again.git.getOrDefault(INFO_REFS, 0);
        int posts = again.git.getOrDefault(UPLOAD_PACK, 0);
        // Protocol v0 (Rekon's git source asks for it): a listing is GET info/refs, which advertises the refs; a
        // fetch adds one POST upload-pack. So fetches = POSTs, ls-remotes (listings without a fetch) = GETs - POSTs.
        int fetches = posts;
        int lsRemotes = gets - fetches;
        boolean met = fetches == 0 && cacheChanged == 0 && writes == 0 && lsRemotes == count;
        System.out.printf("| converged resync of the %d: fetches; writes (resourceVersions of %d objects and %d"
                + " DeclaredStates); ls-remotes | %d; %d; %d (%.1f s) | | 0; 0; %d: %s |%n", count, count * 10, count,
                fetches, writes, lsRemotes, again.millis / 1000, count, met ? "met" : "missed");
        System.out.printf("| … git server log: %s (v0: fetches = POSTs); object files of the git cache added"
                + " or changed: %d; Rekon's API calls: %s | | | |%n", again.git, cacheChanged, again.calls);
        results.put("fleet_converged", Map.of("fetches", fetches, "writes", writes, "ls_remotes", lsRemotes, "rekon_ms",
                again.millis, "api_calls", again.calls, "git", again.git, "cache_files_changed", cacheChanged));
    }

    /** Every object file (packs, loose objects) and shallow file of the cache under {@code dir}: size and time. */
    private static Map<String, String> files(Path dir) throws java.io.IOException {
        Map<String, String> out = new HashMap<>();
        try (var walk = Files.walk(dir)) {
            for (Path f : walk.filter(Files::isRegularFile).filter(f -> f.toString().contains("/objects/")
                    || f.getFileName().toString().equals("shallow")).toList()) {
                out.put(dir.relativize(f).toString(), Files.size(f) + "@" + Files.getLastModifiedTime(f).toMillis());
            }
        }
        return out;
    }

    /** Flux's published figure nearest at or below {@code count} Kustomizations, said as a reference. */
    static String flux(int count) {
        Map.Entry<Integer, Double> e = FLUX_KUSTOMIZATIONS_S.floorEntry(count);
        e = e == null ? FLUX_KUSTOMIZATIONS_S.firstEntry() : e;
        return String.format("Flux's published %.0f s for %,d Kustomizations (another machine: a reference, not a"
                + " pass mark)", e.getValue(), e.getKey());
    }

    private Poster.Answer resync() {
        return send(event("dev.rekon.resync", "{\"scope\":\"declared\"}"));
    }

    /** resourceVersions of every labelled object and of every DeclaredState of {@code sites}. */
    private Map<String, String> versions(List<Site> sites) {
        Map<String, String> v = new HashMap<>();
        for (Site s : sites) {
            admin.configMaps().inNamespace(s.ns).withLabel(LABEL).list().getItems().forEach(o -> put(v, o));
            put(v, s.state());
        }
        return v;
    }

    private static void put(Map<String, String> v, HasMetadata o) {
        v.put(o.getKind() + "/" + o.getMetadata().getNamespace() + "/" + o.getMetadata().getName(),
                o.getMetadata().getResourceVersion());
    }

    // ---- peak RSS of a large repository -------------------------------------------------------------------------

    private void rss(int files) {
        Site warm = site("rss-warm", 20);
        warm.create();
        check(warm.reconcile().body().contains("\"outcome\":\"applied\""), "the warm-up applied");
        Site big = site("rss-big", 0);
        Random random = new Random(42);
        long bytes = 0;
        for (int i = 0; i < files; i++) {
            String yaml = configMap(String.format("big-%04d", i), text(random, 9_900));
            bytes += yaml.length();
            big.work.write(String.format("objects/%02d/big-%04d.yaml", i / 100, i), yaml);
        }
        big.work.commitAndPush(files + " files");
        double before = app.peakRssMiB();
        big.createState();
        Measure m = measure(big::reconcile, a -> a.body().contains("\"outcome\":\"applied\""));
        double after = app.peakRssMiB();
        check(big.labelled() == files, "all " + files + " objects applied");
        double added = after - before;
        System.out.printf("| peak RSS (VmHWM) added by a %d-file, %.0f MB repository: before → after the reconcile"
                + " (%.0f s) | %.0f → %.0f MiB: +%.0f MiB | | ≤ 64 MiB: %s |%n", files, bytes / 1e6, m.millis / 1000,
                before, after, added, added <= 64 ? "met" : "missed");
        results.put("rss_big_repo", Map.of("files", files, "bytes", bytes, "before_mib", before, "after_mib", after,
                "added_mib", added, "rekon_ms", m.millis));
    }

    private static String text(Random random, int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    /**
     * What git alone costs for one DeclaredState's read: Rekon's own git source (the branch listed and its tip
     * fetched, depth 1, on one connection, then its files read) into a new cache, from this process; in ms.
     */
    private double gitFloor(String repo) {
        try {
            Path dir = Files.createTempDirectory(out, "git-floor-");
            JGitSource source = new JGitSource(dir, 64L << 20, Duration.ofSeconds(30), SourceLimits.DEFAULTS);
            long t0 = System.nanoTime();
            source.readTip(new GitRemote(git.url(repo), "main", new GitCredentials(LocalGitServer.USER,
                    LocalGitServer.PASSWORD)), "");
            double millis = (System.nanoTime() - t0) / 1e6;
            delete(dir);
            return millis;
        } catch (Exception e) {
            throw new IllegalStateException("git floor of " + repo, e);
        }
    }

    /** Removes a scratch folder; what a background task still holds is left for the next clean. */
    private static void delete(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            // left in target/bench
        }
    }

    // ---- the raw side -------------------------------------------------------------------------------------------

    /** The objects applied one by one with fabric8's server-side apply: wall time in ms. */
    private double rawLoop(List<ConfigMap> objects) {
        if (!objects.isEmpty()) {
            namespace(objects.get(0).getMetadata().getNamespace());
        }
        long t0 = System.nanoTime();
        for (ConfigMap c : objects) {
            admin.resource(c).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    // ---- one DeclaredState, its namespace and repository ---------------------------------------------------------

    private Site site(String name, int files) {
        return new Site(ns(name), files);
    }

    private String ns(String name) {
        return "bd" + run + "-" + name;
    }

    final class Site {
        final String ns;
        final int size;
        GitWorkdir work;
        private final Map<String, String> values = new LinkedHashMap<>();

        Site(String ns, int size) {
            this.ns = ns;
            this.size = size;
            namespace(ns);
            git.createRepo(ns);
            work = git.clone(ns);
        }

        /** The namespace's credentials, the branch (a README and {@code size} ConfigMaps), the DeclaredState. */
        void create() {
            work.write("README.md", "bench");
            files(size);
            work.commitAndPush("first");
            createState();
        }

        void files(int n) {
            for (int i = 0; i < n; i++) {
                String name = "cm-" + i;
                String value = ns + "-" + i;
                values.put(name, value);
                work.write("objects/" + name + ".yaml", configMap(name, value));
            }
        }

        void createState() {
            admin.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("git-creds")
                    .endMetadata().addToStringData("username", LocalGitServer.USER)
                    .addToStringData("password", LocalGitServer.PASSWORD).build()).create();
            String yaml = """
                    apiVersion: rekon.dev/v1alpha1
                    kind: DeclaredState
                    metadata: {name: apps, namespace: NS}
                    spec:
                      git: {url: "URL", branch: main, secretRef: {name: git-creds}}
                      namespaces: [NS]
                    """.replace("NS", ns).replace("URL", git.url(ns));
            admin.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
        }

        GenericKubernetesResource state() {
            return admin.genericKubernetesResources("rekon.dev/v1alpha1", "DeclaredState").inNamespace(ns)
                    .withName("apps").get();
        }

        /** Out of later resyncs: the finalizer dropped, the DeclaredState deleted; its objects stay. */
        void forget() {
            var op = admin.genericKubernetesResources("rekon.dev/v1alpha1", "DeclaredState").inNamespace(ns)
                    .withName("apps");
            op.edit(o -> {
                o.getMetadata().setFinalizers(List.of());
                return o;
            });
            op.delete();
        }

        Poster.Answer reconcile() {
            return send(event("dev.rekon.declared.reconcile", "{\"namespace\":\"" + ns + "\",\"name\":\"apps\"}"));
        }

        /** A GitHub push delivery for this repository's main branch, signed with the bench's secret. */
        Poster.Answer webhook(String head) {
            String body = """
                    {"ref":"refs/heads/main","before":"0000000000000000000000000000000000000001","after":"AFTER",
                     "deleted":false,"repository":{"full_name":"bench/REPO","clone_url":"URL","html_url":"HTML"}}
                    """.replace("AFTER", head).replace("REPO", ns).replace("HTML", git.url(ns).replace(".git", ""))
                    .replace("URL", git.url(ns));
            return poster.send(HttpRequest.newBuilder(URI.create(poster.root() + "webhooks/git")).timeout(LONG)
                    .header("X-GitHub-Event", "push").header("X-GitHub-Delivery", UUID.randomUUID().toString())
                    .header("X-Hub-Signature-256", "sha256=" + hmac(body)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        }

        /** The same ConfigMaps as plain objects in {@code namespace}, for the raw loop. */
        List<ConfigMap> objects(String namespace) {
            return values.entrySet().stream().map(e -> new ConfigMapBuilder().withNewMetadata().withName(e.getKey())
                    .withNamespace(namespace).addToLabels("app.kubernetes.io/managed-by", FIELD_MANAGER).endMetadata()
                    .addToData("value", e.getValue()).build()).toList();
        }

        int labelled() {
            return admin.configMaps().inNamespace(ns).withLabel(LABEL, ns + ".apps").list().getItems().size();
        }
    }

    private void namespace(String name) {
        if (admin.namespaces().withName(name).get() == null) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                    .create();
        }
    }

    static String configMap(String name, String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  value: \"" + value + "\"\n";
    }

    static String hmac(String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- measuring ----------------------------------------------------------------------------------------------

    private HttpRequest event(String type, String data) {
        return HttpRequest.newBuilder(poster.root()).timeout(LONG).header("ce-specversion", "1.0")
                .header("ce-id", UUID.randomUUID().toString()).header("ce-source", "https://127.0.0.1/bench")
                .header("ce-type", type).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(data)).build();
    }

    private Poster.Answer send(HttpRequest request) {
        return poster.send(request);
    }

    /**
     * One timed input: wall time to the reply, Rekon's CPU, its Kubernetes API calls (count and the time they took,
     * as it measures them) and the git server's requests in the meantime.
     */
    record Measure(double millis, double cpuMillis, Map<String, Double> calls, double apiMillis,
            Map<String, Integer> git) {

        String where() {
            double n = calls.values().stream().mapToDouble(Double::doubleValue).sum();
            return String.format("%.0f ms CPU; %.0f API calls taking %.0f ms (%s); git requests %s; the rest (git,"
                    + " parsing, planning, waiting) %.0f ms", cpuMillis, n, apiMillis, calls, git, millis - apiMillis);
        }
    }

    private Measure measure(Supplier<Poster.Answer> input, java.util.function.Predicate<Poster.Answer> ok) {
        Map<String, Double> before = ApiCalls.read(poster);
        int requests = git.requests().size();
        double cpu0 = Cpu.millis(app.pid());
        long t0 = System.nanoTime();
        Poster.Answer a = input.get();
        double millis = (System.nanoTime() - t0) / 1e6;
        double cpu = Cpu.millis(app.pid()) - cpu0;
        check(ok.test(a), "answer " + a.status() + " " + a.body());
        Map<String, Double> after = ApiCalls.read(poster);
        double apiSeconds = 0;
        for (Map.Entry<String, Double> e : after.entrySet()) {
            if (e.getKey().endsWith(" seconds")) {
                apiSeconds += e.getValue() - before.getOrDefault(e.getKey(), 0.0);
            }
        }
        List<String> served = git.requests();
        return new Measure(millis, cpu, ApiCalls.perEvent(before, after, 1), apiSeconds * 1000,
                gitRequests(served.subList(requests, served.size())));
    }

    /** The git server's requests by what they are: info/refs GETs, upload-pack POSTs, 401s. */
    static Map<String, Integer> gitRequests(List<String> requests) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String r : requests) {
            String what = r.startsWith("POST ") && r.contains("/git-upload-pack ") ? UPLOAD_PACK
                    : r.startsWith("GET ") && r.contains("info/refs?service=git-upload-pack") && r.endsWith(" 200")
                            ? INFO_REFS : r.endsWith(" 401") ? "401 (before credentials)" : "other";
            out.merge(what, 1, Integer::sum);
        }
        return out;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("failed: " + what);
        }
    }
}
