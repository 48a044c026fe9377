package dev.rekon.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalRegistry;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Builder re-resolution at scale: ClusterBuildpacks whose statuses already list several versions of their id (as
 * a previous reconcile wrote them), Builders in one namespace naming a few ids each, all resolved once; then one
 * ClusterBuildpack gets a new release and the published event is timed, with the Builder status writes it caused
 * and the registry requests it made counted.
 */
final class BuilderBench {

    static final String NS = "bench-builders";
    static final int IDS_PER_BUILDER = 5;
    /** Ids used by every tenth Builder each, so a change of one of them affects a known subset. */
    static final int POPULAR = 10;
    static final ResourceDefinitionContext CLUSTER_BUILDPACKS = context("ClusterBuildpack", "clusterbuildpacks", false);
    static final Pattern ACCESS = Pattern.compile("\"(?:GET|HEAD|POST|PUT|PATCH|DELETE) (\\S+) HTTP/");
    static final ResourceDefinitionContext BUILDERS = context("Builder", "builders", true);

    private final KubernetesClient admin;
    private final Poster poster;
    private final Path work;
    private final LocalRegistry registry;

    BuilderBench(KubernetesClient admin, Poster poster, Path work) {
        this.admin = admin;
        this.poster = poster;
        this.work = work;
        this.registry = LocalRegistry.start(LocalRegistry.Options.plain("bench-registry"));
    }

    void stop() {
        registry.stop();
    }

    static String id(int i) {
        return "bench/bp-" + i;
    }

    String image(int i) {
        return registry.hostPort() + "/bench/bp-" + i + ":1";
    }

    /**
     * The ids Builder {@code j} names: one popular id and spread ones, so each id is used by a few Builders. With
     * too few buildpacks beyond the popular ones (a scaled-down run), the spread ones come from all of them, so
     * that enough distinct ids exist and the draw ends.
     */
    static List<Integer> idsOf(int j, int buildpacks) {
        int wanted = Math.min(IDS_PER_BUILDER, buildpacks);
        List<Integer> ids = new ArrayList<>(List.of(j % Math.min(POPULAR, buildpacks)));
        int from = buildpacks - POPULAR >= IDS_PER_BUILDER - 1 ? POPULAR : 0;
        for (int t = 1; ids.size() < wanted; t++) {
            int id = from + (j * (IDS_PER_BUILDER - 1) + t) % (buildpacks - from);
            if (!ids.contains(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    Map<String, Object> run(int buildpacks, int versions, int builders) throws Exception {
        Kpack.namespace(admin, NS);
        long t0 = System.nanoTime();
        parallel(buildpacks, i -> clusterBuildpack(i, versions));
        parallel(builders, j -> builder(j, buildpacks));
        double setup = (System.nanoTime() - t0) / 1e9;
        System.out.printf("[bench] created %d ClusterBuildpacks and %d Builders in %.0f s%n", buildpacks, builders, setup);

        Load.Result first = Load.run(4, (builders + 3) / 4, (w, i) -> {
            int j = w * ((builders + 3) / 4) + i;
            return j >= builders || addEvent(j).body().contains("\"applied\"");
        });
        Map<String, String> resolved = builderVersions();

        int changed = 3;
        images().push(image(changed), null, id(changed), "1.1.0", "r2", BuildpackageImages.Buildpack.of(id(changed) + "@1.1.0"));
        long logFrom = Files.size(registryLog());
        long s = System.nanoTime();
        Poster.Answer a = poster.event("dev.rekon.buildpacks.published", Map.of(), "{\"image\":\"" + image(changed) + "\"}");
        double changeMs = (System.nanoTime() - s) / 1e6;
        if (a.status() != 200 || !a.body().contains("\"applied\"")) {
            throw new IllegalStateException("published event: " + a.status() + " " + a.body());
        }
        Map<String, String> after = builderVersions();
        int writes = 0;
        for (var e : after.entrySet()) {
            writes += e.getValue().equals(resolved.get(e.getKey())) ? 0 : 1;
        }
        int expected = 0;
        for (int j = 0; j < builders; j++) {
            expected += idsOf(j, buildpacks).contains(changed) ? 1 : 0;
        }
        List<String> reads = registryRequests(logFrom);
        long otherReads = reads.stream().filter(u -> !u.equals("/v2/") && !u.startsWith("/v2/bench/bp-" + changed + "/")).count();

        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cluster_buildpacks", buildpacks);
        m.put("versions_each", versions);
        m.put("builders", builders);
        m.put("setup_s", setup);
        m.put("resolve_all_s", first.stats().wallSeconds());
        m.put("resolve_builder_p50_ms", first.stats().p(0.5));
        m.put("resolve_not_applied", first.failures());
        m.put("change_event_ms", changeMs);
        m.put("builder_status_writes", writes);
        m.put("builders_naming_changed_id", expected);
        m.put("registry_requests", reads.size());
        m.put("registry_requests_other_images", otherReads);
        return m;
    }

    private Poster.Answer addEvent(int j) {
        String name = "builder-" + j;
        return poster.event("dev.knative.apiserver.ref.add",
                Map.of("apiversion", "kpack.io/v1alpha2", "kind", "Builder", "namespace", NS, "name", name),
                "{\"apiVersion\":\"kpack.io/v1alpha2\",\"kind\":\"Builder\",\"namespace\":\"" + NS + "\",\"name\":\""
                        + name + "\"}");
    }

    private void clusterBuildpack(int i, int versions) {
        GenericKubernetesResource cbp = Serialization.unmarshal("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"ClusterBuildpack","metadata":{"name":"bench-bp-%d"},
                 "spec":{"source":{"image":"%s"}}}""".formatted(i, image(i)), GenericKubernetesResource.class);
        GenericKubernetesResource created = admin.genericKubernetesResources(CLUSTER_BUILDPACKS).resource(cbp).create();
        StringBuilder entries = new StringBuilder();
        for (int v = 0; v < versions; v++) {
            String version = "1.0." + v;
            String hex = String.format("%056x%08x", i, v);
            entries.append(v == 0 ? "" : ",").append("""
                    {"id":"%s","version":"%s","api":"0.7","homepage":"https://example.org/%s",
                     "diffId":"sha256:%s","digest":"sha256:%s","size":1024,
                     "buildpackage":{"id":"%s","version":"%s","homepage":"https://example.org/%s"},
                     "storeImage":{"image":"%s"},"stacks":[{"id":"io.buildpacks.stacks.bionic"}]}"""
                    .formatted(id(i), version, id(i), hex, hex, id(i), version, id(i), image(i)));
        }
        created.setAdditionalProperty("status", Serialization.unmarshal("""
                {"observedGeneration":1,"buildpacks":[%s],"conditions":[{"type":"Ready","status":"True",
                 "lastTransitionTime":"2026-01-01T00:00:00Z"}]}""".formatted(entries), Map.class));
        admin.genericKubernetesResources(CLUSTER_BUILDPACKS).resource(created).updateStatus();
    }

    private void builder(int j, int buildpacks) {
        StringBuilder group = new StringBuilder();
        for (int id : idsOf(j, buildpacks)) {
            group.append(group.length() == 0 ? "" : ",").append("{\"id\":\"").append(id(id)).append("\"}");
        }
        GenericKubernetesResource b = Serialization.unmarshal("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"builder-%d","namespace":"%s"},
                 "spec":{"tag":"%s/builders/b%d","serviceAccountName":"default","order":[{"group":[%s]}]}}"""
                .formatted(j, NS, registry.hostPort(), j, group), GenericKubernetesResource.class);
        admin.genericKubernetesResources(BUILDERS).inNamespace(NS).resource(b).create();
    }

    private Map<String, String> builderVersions() {
        Map<String, String> v = new HashMap<>();
        admin.genericKubernetesResources(BUILDERS).inNamespace(NS).list().getItems()
                .forEach(b -> v.put(b.getMetadata().getName(), b.getMetadata().getResourceVersion()));
        return v;
    }

    private BuildpackageImages images() throws IOException {
        return new BuildpackageImages(Files.createDirectories(work.resolve("buildpackages")));
    }

    private Path registryLog() {
        return work.getParent().resolve("bench-registry/registry.log");
    }

    /** The request URIs in the registry's access log after byte {@code from}. */
    private List<String> registryRequests(long from) throws IOException {
        byte[] all = Files.readAllBytes(registryLog());
        int start = (int) Math.min(from, all.length);
        Matcher m = ACCESS.matcher(new String(all, start, all.length - start, StandardCharsets.UTF_8));
        List<String> uris = new ArrayList<>();
        while (m.find()) {
            uris.add(m.group(1));
        }
        return uris;
    }

    private interface Step {
        void run(int i) throws Exception;
    }

    private static void parallel(int n, Step step) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = i;
            done.add(pool.submit(() -> {
                step.run(k);
                return null;
            }));
        }
        pool.shutdown();
        for (Future<?> f : done) {
            f.get(10, TimeUnit.MINUTES);
        }
    }

    private static ResourceDefinitionContext context(String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder().withGroup("kpack.io").withVersion("v1alpha2").withKind(kind)
                .withPlural(plural).withNamespaced(namespaced).build();
    }
}
