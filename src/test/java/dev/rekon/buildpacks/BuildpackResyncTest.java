package dev.rekon.buildpacks;

import static dev.rekon.buildpacks.BuildpackPublicationTest.condition;
import static dev.rekon.buildpacks.BuildpackPublicationTest.create;
import static dev.rekon.buildpacks.BuildpackPublicationTest.get;
import static dev.rekon.buildpacks.BuildpackPublicationTest.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.core.ObjectRef;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;
import dev.rekon.testing.Await;
import dev.rekon.testing.BuildpackageImages.Buildpack;
import dev.rekon.testing.BuildpackageImages;
import dev.rekon.testing.Kpack;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The buildpacks resync on the real apiserver and real registries that notify nobody (one behind htpasswd, read
 * with a ServiceAccount's pull secret): a new buildpackage pushed to the same tag, with no event, reaches the
 * Buildpack's status and its Builder through the resync alone; a resync of the converged namespace then makes no
 * write and one manifest HEAD per image (the registry's own access log counts them).
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BuildpackResyncTest {

    static final String NS = "bp-resync";
    static final ResyncScope SCOPE = new ResyncScope(NS, false);
    static final ResyncScope REPORT = new ResyncScope(NS, true);

    static LocalRegistry quiet;
    static LocalRegistry locked;
    static BuildpackageImages images;
    static String image;

    @Inject
    BuildpackResync resync;

    @Inject
    MeterRegistry metrics;

    @BeforeAll
    static void setUp() throws Exception {
        quiet = LocalRegistry.start(LocalRegistry.Options.plain("bp-resync-quiet"));
        images = new BuildpackageImages(Files.createDirectories(Path.of("target/bp-resync-work")));
        image = quiet.hostPort() + "/resync/java:1";
        images.push(image, null, "acme/java", "1.0.0", "r1", Buildpack.of("acme/java@1.0.0"));
        locked = LocalRegistry.start(LocalRegistry.Options.plain("bp-resync-locked")
                .withBasicAuth(BuildpackPublicationTest.USER, BuildpackPublicationTest.PASSWORD));
        images.push(locked.hostPort() + "/private/node:1", BuildpackPublicationTest.USER + ":"
                + BuildpackPublicationTest.PASSWORD, "acme/node", "1.0.0", "r1", Buildpack.of("acme/node@1.0.0"));
        Kpack.namespace(LocalCluster.get().adminClient(), NS);
        BuildpackPublicationTest.puller(NS, locked);
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Buildpack","metadata":{"name":"node","namespace":"%s"},
                 "spec":{"serviceAccountName":"puller","source":{"image":"%s/private/node:1"}}}"""
                .formatted(NS, locked.hostPort()));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Buildpack","metadata":{"name":"java","namespace":"%s"},
                 "spec":{"source":{"image":"%s"}}}""".formatted(NS, image));
        create("""
                {"apiVersion":"kpack.io/v1alpha2","kind":"Builder","metadata":{"name":"web","namespace":"%s"},
                 "spec":{"tag":"%s/builders/web","order":[{"group":[{"id":"acme/java"}]}]}}""".formatted(NS, image));
    }

    @AfterAll
    static void tearDown() {
        quiet.stop();
        locked.stop();
    }

    @Test
    @Order(1)
    void objectsNoEventAnnouncedAreReadByTheResync() {
        Await.until("the resync to read the Buildpack and resolve the Builder", () -> {
            resync.resync(SCOPE);
            return builderVersion().equals("1.0.0");
        });
        assertEquals(List.of("acme/java@1.0.0"), keys(get("Buildpack", NS, "java").at("/status/buildpacks")));
        Await.until("the private Buildpack read with its pull secret",
                () -> keys(get("Buildpack", NS, "node").at("/status/buildpacks")).equals(List.of("acme/node@1.0.0")));
        assertEquals("True", condition(get("Builder", NS, "web"), "UpToDate").path("status").asText());
    }

    @Test
    @Order(2)
    void aNewBuildpackageOnTheSameTagMovesTheStatusAndTheBuilder() throws Exception {
        awaitConverged();
        images.push(image, null, "acme/java", "1.1.0", "r2", Buildpack.of("acme/java@1.1.0"));

        AreaResult report = resync.resync(REPORT);
        assertEquals(List.of(new ResyncItem(ref("Buildpack", "java"), "changed", "DigestMoved", null),
                new ResyncItem(ref("Builder", "web"), "changed", "BuildpackChanged", null)),
                report.objects().stream().map(i -> new ResyncItem(i.object(), i.result(), i.reason(), null)).toList(),
                "the report reads the moved image and plans the Builder against the status it would write");

        AreaResult result = resync.resync(SCOPE);

        assertEquals(3, result.checked());
        assertEquals(2, result.changed(), result.toString());
        assertEquals(List.of("acme/java@1.1.0"), keys(get("Buildpack", NS, "java").at("/status/buildpacks")));
        assertEquals("1.1.0", builderVersion());
    }

    @Test
    @Order(3)
    void aConvergedNamespaceCostsOneHeadPerImageAndNoWrite() throws Exception {
        awaitConverged();
        String buildpackVersion = get("Buildpack", NS, "java").at("/metadata/resourceVersion").asText();
        String builderVersion = get("Builder", NS, "web").at("/metadata/resourceVersion").asText();
        long writes = writes();
        long heads = manifestRequests("HEAD");
        long gets = manifestRequests("GET");

        AreaResult result = resync.resync(SCOPE);

        assertEquals(new AreaResult("buildpacks", 3, 0, 3, 0, 0, List.of()), result);
        assertEquals(writes, writes(), "API writes during a converged resync");
        assertEquals(buildpackVersion, get("Buildpack", NS, "java").at("/metadata/resourceVersion").asText());
        assertEquals(builderVersion, get("Builder", NS, "web").at("/metadata/resourceVersion").asText());
        Await.until("the registry to log the HEAD", () -> manifestRequests("HEAD") > heads);
        Thread.sleep(300);
        assertEquals(heads + 1, manifestRequests("HEAD"), "manifest HEADs of the one image");
        assertEquals(gets, manifestRequests("GET"), "manifest GETs");
    }

    /** Until a plan-only pass finds nothing to change: the watches show what the previous pass wrote. */
    void awaitConverged() {
        Await.until("the watches to show the last writes", () -> resync.resync(REPORT).changed() == 0);
    }

    static String builderVersion() {
        return get("Builder", NS, "web").at("/status/order/0/group/0/version").asText();
    }

    static ObjectRef ref(String kind, String name) {
        return new ObjectRef(BuildpackView.API_VERSION, kind, NS, name);
    }

    /** Kubernetes API calls of the application other than reads (GET covers list and watch). */
    long writes() {
        return metrics.find("rekon.api.calls").timers().stream()
                .filter(t -> !"GET".equals(t.getId().getTag("method"))).mapToLong(Timer::count).sum();
    }

    /** Manifest requests for the image's repository in the registry's access log. */
    static long manifestRequests(String method) {
        try {
            String log = Files.readString(Path.of("target/bp-resync-quiet/registry.log"));
            String request = "\"" + method + " /v2/resync/java/manifests/";
            return log.lines().filter(l -> l.contains(request)).count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

}
