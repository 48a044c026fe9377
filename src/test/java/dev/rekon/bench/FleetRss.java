package dev.rekon.bench;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.rekon.testing.GitWorkdir;
import dev.rekon.testing.LocalGitServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The fleet's memory figure, in the process {@link ResyncBench} left with its ImageDeploys watched: D DeclaredStates
 * (10 ConfigMaps each, one folder each of one repository on a real git server, spread over the same namespaces)
 * applied by one declared resync pass; then the peak RSS of the process (VmHWM, goal ≤ 384 MiB) and the live heap
 * after a full GC before and after, per DeclaredState.
 */
final class FleetRss {

    static final int OBJECTS = 10;

    private final KubernetesClient admin;
    private final App app;
    private final Poster poster;

    FleetRss(KubernetesClient admin, App app, Poster poster) {
        this.admin = admin;
        this.app = app;
        this.poster = poster;
    }

    void run(int imageDeploys, List<String> namespaces, int states) throws Exception {
        double heapIds = HeapUse.afterFullGcMiB(app.pid());
        double rssIds = app.peakRssMiB();
        System.out.printf("[bench] live heap with %,d ImageDeploys watched, the largest classes:%n%s%n", imageDeploys,
                HeapUse.histogram(app.pid(), 80));
        LocalGitServer git = LocalGitServer.get();
        git.createRepo("fleet");
        GitWorkdir work = git.clone("fleet");
        work.write("README.md", "fleet");
        for (int k = 0; k < states; k++) {
            for (int i = 0; i < OBJECTS; i++) {
                String name = "cm-" + k + "-" + i;
                work.write("ds-" + k + "/" + name + ".yaml", DeclaredBench.configMap(name, "fleet-" + k + "-" + i));
            }
        }
        work.commitAndPush("fleet");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (String ns : namespaces) {
            pool.submit(() -> admin.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata()
                    .withName("git-creds").endMetadata().addToStringData("username", LocalGitServer.USER)
                    .addToStringData("password", LocalGitServer.PASSWORD).build()).create());
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        pool = Executors.newFixedThreadPool(8);
        for (int k = 0; k < states; k++) {
            int n = k;
            String ns = namespaces.get(k % namespaces.size());
            pool.submit(() -> admin.resource(Serialization.unmarshal("""
                    apiVersion: rekon.dev/v1alpha1
                    kind: DeclaredState
                    metadata: {name: ds-K, namespace: NS}
                    spec:
                      git: {url: "URL", branch: main, path: ds-K, secretRef: {name: git-creds}}
                      namespaces: [NS]
                    """.replace("ds-K", "ds-" + n).replace("NS", ns).replace("URL", git.url("fleet")),
                    GenericKubernetesResource.class)).create());
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        System.out.printf("[bench] %,d DeclaredStates created; %s%n", states, ResyncBench.load());
        long t0 = System.nanoTime();
        Poster.Answer a;
        try {
            a = poster.pass("declared");
        } catch (IllegalStateException e) {
            a = new Poster.Answer(0, e.getMessage()); // the process may have died: said below, with its peak
        }
        double passS = (System.nanoTime() - t0) / 1e9;
        long applied = admin.configMaps().inAnyNamespace().withLabel(DeclaredBench.LABEL).list().getItems().stream()
                .filter(c -> c.getMetadata().getName().startsWith("cm-")).count();
        System.out.printf("[bench] declared pass: %d in %.0f s, %,d objects applied: %s%n", a.status(), passS, applied,
                a.body().length() > 400 ? a.body().substring(0, 400) + "…" : a.body());
        boolean alive = app.isAlive();
        double heapAll = HeapUse.afterFullGcMiB(app.pid());
        if (alive) {
            System.out.printf("[bench] live heap with the %,d DeclaredStates too, the largest classes:%n%s%n", states,
                    HeapUse.histogram(app.pid(), 80));
        }
        double rss = app.peakRssMiB();
        System.out.printf("| peak RSS (VmHWM) with %,d ImageDeploys watched, before the DeclaredStates | %.0f MiB | |%n",
                imageDeploys, rssIds);
        System.out.printf("| **peak RSS (VmHWM) with %,d ImageDeploys + %,d DeclaredStates (%,d objects) watched**, after"
                + " one declared pass applied them (%.0f s, %s) | **%.0f MiB** | ≤ 384 MiB %s |%n", imageDeploys, states,
                applied, passS, ResyncBench.load(), rss, alive && rss <= 384 ? "met" : "missed");
        if (!alive) {
            System.out.printf("| **the application died during the declared pass** (its log: OutOfMemoryError?) | | "
                    + "missed |%n");
        }
        System.out.printf("| live heap after a full GC: with the ImageDeploys / with the DeclaredStates too; per "
                + "ImageDeploy (all of the heap) / per DeclaredState (the difference) | %.1f / %.1f MiB; %.1f / %.1f KiB |"
                + " |%n", heapIds, heapAll, heapIds * 1024 / imageDeploys, (heapAll - heapIds) * 1024 / states);
        if (alive) {
            converged(states, heapIds);
        }
    }

    /** A second pass, converged: what each DeclaredState keeps once its objects exist (read, not only applied). */
    private void converged(int states, double heapIds) {
        long t0 = System.nanoTime();
        Poster.Answer a;
        try {
            a = poster.pass("declared");
        } catch (IllegalStateException e) {
            a = new Poster.Answer(0, e.getMessage());
        }
        double passS = (System.nanoTime() - t0) / 1e9;
        double heap = HeapUse.afterFullGcMiB(app.pid());
        System.out.printf("| after a second, converged declared pass (%d in %.0f s): live heap after a full GC; per "
                + "DeclaredState | %.1f MiB; %.1f KiB | |%n", a.status(), passS, heap, (heap - heapIds) * 1024 / states);
        System.out.printf("| peak RSS (VmHWM) after it | %.0f MiB | ≤ 384 MiB |%n", app.peakRssMiB());
    }
}
