package dev.rekon.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.rekon.testing.Await;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.ProjectCopy;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A bounded first event: the packaged application, started fresh as a process scaled from zero is (start-up pass
 * on), gets one event of a kind as its very first, and answers it within {@link #BOUND}. The cold-start gate holds
 * the watches and the start-up pass back while a first event is handled; no event may wait on what that gate
 * holds back, whatever its kind. The process is ready when its liveness answers, which is no event.
 */
class FirstEventTest {

    /** The longest a first event may take to be answered, as long as a Knative delivery waits. */
    static final Duration BOUND = Duration.ofSeconds(30);
    /**
     * A small module published to the test registry, with its release objects and its Kyma in {@code KCP}; it
     * installs into {@code NS}, where the events about objects that do not exist are too.
     */
    static final String MODULE = "firstmodule", KCP = "first-kcp", NS = "first-event";

    static LocalRegistry registry;
    static BenchModule module;
    static Path appDir;
    final Path out = SharedFiles.projectDir().resolve("target/first-event");

    /** One kind of event, as its Trigger delivers it to a fresh process. */
    enum Kind {
        /** The Kyma lists the module: this first event installs it. */
        KYMA("dev.knative.apiserver.ref.update", Map.of("kind", "Kyma", "apiversion", BenchModule.KYMA, "namespace", KCP,
                "name", "default"), ref(BenchModule.KYMA, "Kyma", KCP, "default")),
        /**
         * The channel moved to the next version: this first event, the object itself as the ApiServerSource sends it
         * (mode Resource), upgrades the Kyma that installed the module.
         */
        MODULE_RELEASE_META("dev.knative.apiserver.resource.update", Map.of("kind", "ModuleReleaseMeta", "apiversion",
                BenchModule.KYMA, "namespace", KCP, "name", MODULE), null),
        IMAGE_DEPLOY("dev.knative.apiserver.ref.update", Map.of("kind", "ImageDeploy", "apiversion", "rekon.dev/v1alpha1",
                "namespace", NS, "name", "shop"), ref("rekon.dev/v1alpha1", "ImageDeploy", NS, "shop")),
        BUILDPACK("dev.knative.apiserver.ref.update", Map.of("kind", "ClusterBuildpack", "apiversion",
                "kpack.io/v1alpha2", "name", "first-bp"), ref("kpack.io/v1alpha2", "ClusterBuildpack", null, "first-bp")),
        DECLARED_STATE("dev.knative.apiserver.ref.update", Map.of("kind", "DeclaredState", "apiversion",
                "rekon.dev/v1alpha1", "namespace", NS, "name", "site"), ref("rekon.dev/v1alpha1", "DeclaredState", NS, "site")),
        RESYNC("dev.rekon.resync", Map.of(), "{\"scope\": \"all\"}");

        final String type;
        final Map<String, String> extensions;
        final String data;

        Kind(String type, Map<String, String> extensions, String data) {
            this.type = type;
            this.extensions = extensions;
            this.data = data;
        }

        private static String ref(String apiVersion, String kind, String namespace, String name) {
            return "{\"apiVersion\":\"" + apiVersion + "\",\"kind\":\"" + kind + "\",\"name\":\"" + name + "\""
                    + (namespace == null ? "" : ",\"namespace\":\"" + namespace + "\"") + "}";
        }
    }

    @BeforeAll
    static void prepare() throws Exception {
        registry = LocalRegistry.start(LocalRegistry.Options.plain("first-event-registry"));
        KubernetesClient admin = LocalCluster.get().adminClient();
        module = new BenchModule(MODULE, KCP, 20);
        module.prepare(admin, registry.hostPort(), NS);
        module.kyma(admin, true);
        appDir = ProjectCopy.packagedApp();
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.stop();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aFreshProcessAnswersItsFirstEventInBound(Kind kind) throws Exception {
        Files.createDirectories(out);
        String data = kind.data;
        if (kind == Kind.MODULE_RELEASE_META) {
            data = module.channel(LocalCluster.get().adminClient(), BenchModule.V2).toString();
        }
        App app = App.start(SharedFiles.projectDir(), appDir, Map.of(), LocalCluster.get().kubeconfigFile(),
                out.resolve("rekon-" + kind + ".log"), "rekon.cluster-scoped=true");
        try {
            Poster poster = new Poster(app.port());
            HttpRequest live = HttpRequest.newBuilder(poster.root().resolve("/q/health/live")).GET().build();
            Await.until("the application to be live", Duration.ofSeconds(120), () -> poster.send(live).status() == 200);
            long t0 = System.nanoTime();
            Poster.Answer first = poster.event(kind.type, kind.extensions, data);
            long millis = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("[first-event] %s: HTTP %d in %d ms: %s%n", kind, first.status(), millis, first.body());
            assertTrue(first.status() != 0 && millis <= BOUND.toMillis(), kind + " as a fresh process's first event was"
                    + " not answered within " + BOUND.toSeconds() + " s (" + millis + " ms): " + first.body());
            assertTrue(first.status() < 500, kind + " answered " + first.status() + ": " + first.body());
        } finally {
            app.stop();
        }
    }
}
