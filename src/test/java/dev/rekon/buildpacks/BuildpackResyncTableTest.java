package dev.rekon.buildpacks;

import static dev.rekon.buildpacks.BuildpackServiceTest.BUILDER;
import static dev.rekon.buildpacks.BuildpackServiceTest.CBP;
import static dev.rekon.buildpacks.BuildpackServiceTest.IMAGE;
import static dev.rekon.buildpacks.BuildpackServiceTest.PUBLISHED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.rekon.buildpacks.status.BuildRows;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.core.TransientFailureException;
import dev.rekon.registry.RegistryImage;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncScope;

/**
 * The buildpacks pass over the in-memory gateway, catalog and index: what it reads, writes and counts for a
 * never-read buildpack, a converged cluster, a moved digest, a registry outage and a report.
 */
class BuildpackResyncTableTest {

    final InMemoryBuildpacks cluster = new InMemoryBuildpacks();

    BuildpackResync resync() {
        return resync(cluster, BuildpackServiceTest.service(cluster));
    }

    /** The buildpacks pass over the in-memory cluster, wired to {@code service}'s loop, guard and reconcilers. */
    static BuildpackResync resync(InMemoryBuildpacks cluster, BuildpackService service) {
        BuildpackResync resync = new BuildpackResync();
        resync.rechecks = BuildpackRecheckReconciler.of(service);
        resync.loop = service.resolutions.loop;
        resync.builderReconciler = service.resolutions.reconciler;
        resync.catalog = cluster;
        resync.builders = cluster;
        resync.gateway = cluster;
        resync.guard = service.guard;
        resync.kinds = dev.rekon.testing.ServedKinds.all();
        return resync;
    }

    List<String> objects(AreaResult result) {
        return result.objects().stream().map(i -> i.object().kind() + " " + i.object().name() + " " + i.result()
                + " " + i.reason()).toList();
    }

    @Test
    void aBuildpackNoEventAnnouncedIsReadAndItsBuilderResolved() {
        PUBLISHED.accept(cluster);
        AreaResult result = resync().resync(ResyncScope.all());
        assertEquals(List.of("ClusterBuildpack java changed SpecChanged", "Builder builder changed BuildpackChanged"),
                objects(result));
        assertEquals(List.of(CBP, BUILDER), cluster.writes);
    }

    @Test
    void aConvergedClusterCostsOneHeadPerImageAndNoWrite() {
        BuildpackServiceTest.resolved().accept(cluster);
        assertEquals(new AreaResult("buildpacks", 2, 0, 2, 0, 0, List.of()), resync().resync(ResyncScope.all()));
        assertEquals(List.of(IMAGE), cluster.heads);
        assertEquals(List.of(), cluster.imageReads);
        assertEquals(List.of(), cluster.writes);
    }

    @Test
    void objectsNamingTheSameImageShareOneHeadInAPass() {
        PUBLISHED.andThen(c -> c.put(BuildpackServiceTest.json("""
                {"apiVersion": "kpack.io/v1alpha2", "kind": "ClusterBuildpack", "metadata": {"name": "java-copy",
                 "generation": 1}, "spec": {"source": {"image": "%s"}}}""".formatted(IMAGE)))).accept(cluster);
        BuildpackService events = BuildpackServiceTest.service(cluster);
        events.handle(BuildpackServiceTest.JAVA_CHANGED);
        events.handle(new BuildpackInput.BuildpackChanged("ClusterBuildpack", null, "java-copy", null));
        cluster.writes.clear();

        assertEquals(new AreaResult("buildpacks", 3, 0, 3, 0, 0, List.of()), resync().resync(ResyncScope.all()));
        assertEquals(List.of(IMAGE), cluster.heads, "one HEAD for both ClusterBuildpacks");
        assertEquals(List.of(), cluster.writes);
    }

    @Test
    void aMovedDigestIsReadAgainPinnedToIt() {
        String moved = resolvedThenMoved();

        AreaResult result = resync().resync(ResyncScope.all());

        assertEquals(List.of("ClusterBuildpack java changed DigestMoved"), objects(result));
        assertEquals(List.of(IMAGE + "@" + moved), cluster.imageReads);
        assertEquals(List.of(CBP), cluster.writes);
    }

    @Test
    void aRefreshThatFailsOnceIsRetriedByTheNextPass() {
        String moved = resolvedThenMoved();
        cluster.failNext("read", new TransientFailureException("registry unreachable", null));
        BuildpackResync resync = resync();

        AreaResult first = resync.resync(ResyncScope.all());
        assertEquals(1, first.failed(), first.toString());
        assertEquals(List.of(), cluster.writes);

        AreaResult second = resync.resync(ResyncScope.all());
        assertEquals(List.of("ClusterBuildpack java changed DigestMoved"), objects(second));
        assertEquals(List.of(IMAGE + "@" + moved, IMAGE + "@" + moved), cluster.imageReads, "read again pinned");
        assertEquals(List.of(CBP), cluster.writes);
    }

    @Test
    void thePageShowsTheDigestTheReportSaysTheStatusWasReadFrom() {
        resolvedThenMoved();
        AreaResult report = resync().resync(new ResyncScope(null, true));
        String page = BuildRows.buildpacks(List.of(BuildpackView.of(cluster.objects.values().iterator().next())))
                .get(0).digest();
        assertEquals(BuildpackStatusPlannerTest.DIGEST, page, "the digest on the page");
        assertTrue(report.objects().get(0).message().endsWith("the status was read from " + page),
                report.objects().get(0).message());
    }

    /** The converged cluster, then the image's tag moved to another digest (same content): that digest. */
    String resolvedThenMoved() {
        BuildpackServiceTest.resolved().accept(cluster);
        RegistryImage old = BuildpackStatusPlannerTest.javaImage();
        String moved = "sha256:" + "f".repeat(64);
        RegistryImage next = new RegistryImage(old.reference(), moved, old.mediaType(), old.layers(), old.config());
        cluster.images.put(IMAGE, new ImageRead.Found(next));
        cluster.images.put(IMAGE + "@" + moved, new ImageRead.Found(next));
        return moved;
    }

    @Test
    void aRegistryOutageIsCountedAndTheBuildersStillResolve() {
        BuildpackServiceTest.resolved().accept(cluster);
        cluster.failNext("head", new TransientFailureException("registry unreachable", null));
        AreaResult result = resync().resync(ResyncScope.all());
        assertEquals(List.of("ClusterBuildpack java failed ImageCheckFailed"), objects(result));
        assertEquals(1, result.unchanged());
        assertEquals(List.of(), cluster.writes);
    }

    /**
     * A report reads the image of the one buildpack it plans to refresh, as the writing pass then does, and plans
     * its Builder against the status that refresh would write: the same objects, for the same reasons.
     */
    @Test
    void aReportPlansAndWritesNothing() {
        PUBLISHED.accept(cluster);
        AreaResult result = resync().resync(new ResyncScope(null, true));
        assertEquals(List.of("ClusterBuildpack java changed SpecChanged", "Builder builder changed BuildpackChanged"),
                objects(result));
        assertEquals(List.of(), cluster.writes);
        assertEquals(List.of(IMAGE), cluster.imageReads, "only the image of the buildpack it refreshes");
        List<String> reads = List.copyOf(cluster.imageReads);
        cluster.imageReads.clear();

        assertEquals(objects(result), objects(resync().resync(ResyncScope.all())), "what the writing pass does");
        assertEquals(List.of(CBP, BUILDER), cluster.writes);
        assertEquals(reads, cluster.imageReads);
    }

    @Test
    void aReportWhoseReadFailsCountsItFailedAsTheWritingPassDoes() {
        resolvedThenMoved();
        cluster.failNext("read", new TransientFailureException("registry unreachable", null));
        cluster.failNext("read", new TransientFailureException("registry unreachable", null));
        AreaResult report = resync().resync(new ResyncScope(null, true));
        assertEquals(List.of("ClusterBuildpack java failed RefreshFailed"), objects(report));
        assertEquals(objects(report), objects(resync().resync(ResyncScope.all())));
        assertEquals(List.of(), cluster.writes);
    }

    @Test
    void aReportOfAConvergedClusterReadsNoImage() {
        BuildpackServiceTest.resolved().accept(cluster);
        assertEquals(0, resync().resync(new ResyncScope(null, true)).changed());
        assertEquals(List.of(IMAGE), cluster.heads);
        assertEquals(List.of(), cluster.imageReads);
    }

    @Test
    void aReportOfAMovedDigestReadsItPinnedAsTheRefreshWould() {
        String moved = resolvedThenMoved();
        AreaResult report = resync().resync(new ResyncScope(null, true));
        assertEquals(List.of(IMAGE + "@" + moved), cluster.imageReads);
        assertEquals(List.of(), cluster.writes);
        assertEquals(objects(report), objects(resync().resync(ResyncScope.all())));
    }
}
