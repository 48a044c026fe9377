package dev.rekon.rollouts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;
import dev.rekon.rollouts.plan.RolloutPlanner;
import dev.rekon.rollouts.status.RolloutSection;
import dev.rekon.rollouts.status.RolloutSection.RolloutRow;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.status.StatusReport;
import dev.rekon.testing.RecordingEvents;

/**
 * Generated cluster states of the rollouts area (ImageDeploys and their Deployments, converged by Rekon first,
 * then bent at random: a newer or unready build, suspended, renamed, deleted, a Deployment changed by hand,
 * unowned or owned by another group, renamed to a name taken by a Deployment Rekon does not manage). For each, three answers must name the same objects: the status page's
 * claims (Lagging rows, prune rows), a report-mode resync's reply, and what a writing resync then changes or
 * deletes on the in-memory cluster.
 */
class RolloutPropertyTest {

    static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 })
    void thePageTheReportAndTheWritesAgree(long seed) {
        Random random = new Random(seed);
        RolloutServiceTest.World world = new RolloutServiceTest.World();
        InMemoryRollouts cluster = world.cluster;
        int n = 3 + random.nextInt(10);
        for (int i = 0; i < n; i++) {
            RolloutServiceTest.imageDeploy("idp-" + i, "d-" + i).accept(world);
            cluster.images.put("team/img-" + i, image(i, 1, true));
            reference(cluster, i);
        }
        pass(world, false);
        for (int i = 0; i < n; i++) {
            bend(cluster, i, random);
        }
        cluster.writes.clear();

        StatusReport page = RolloutReport.over(RolloutServiceTest.LOOP, Clock.fixed(NOW, ZoneOffset.UTC), cluster)
                .addTo(StatusReport.empty(NOW, null), watched(cluster), null);
        AreaResult report = pass(world, true);
        assertEquals(List.of(), cluster.writes, "a report-mode pass writes nothing");
        Map<String, String> deploymentOf = cluster.imageDeploys.values().stream().map(ImageDeployView::fromJson)
                .collect(Collectors.toMap(ImageDeployView::deploymentName, ImageDeployView::name, (a, b) -> a));
        AreaResult written = pass(world, false);

        Set<String> pagePrunes = page.section(RolloutSection.class).prunes().stream().map(RolloutSection.PruneRow::deployment)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(pagePrunes, names(report, "pruned"), "page and report: the Deployments pruned");
        assertEquals(pagePrunes, written("delete Deployment", cluster), "page and writes: the Deployments deleted");
        assertEquals(pagePrunes, names(written, "pruned"));

        Set<String> lagging = page.section(RolloutSection.class).rollouts().stream().filter(r -> "Lagging".equals(r.state())).map(RolloutRow::name)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> deploymentWrites = new TreeSet<>();
        written("create Deployment", cluster).forEach(d -> deploymentWrites.add(deploymentOf.get(d)));
        written("patch Deployment", cluster).forEach(d -> deploymentWrites.add(deploymentOf.get(d)));
        assertEquals(lagging, deploymentWrites, "the page's Lagging rows are the Deployments a pass writes");
        // A name taken by a Deployment Rekon does not manage: a conflict on the page, in the report and in the
        // write, whose only write is the status saying so.
        Set<String> conflicts = names(report, "conflict");
        assertEquals(conflicts, names(written, "conflict"), "report and writes: the conflicts");
        assertEquals(conflicts, page.section(RolloutSection.class).rollouts().stream().filter(r -> RolloutPlanner.CONFLICT.equals(r.reason()))
                .map(RolloutRow::name).collect(Collectors.toCollection(TreeSet::new)), "page and report: the conflicts");
        assertTrue(conflicts.stream().noneMatch(deploymentWrites::contains), "no Deployment written for " + conflicts);
        assertTrue(written("status ImageDeploy", cluster).containsAll(conflicts), "each conflict's status says so");
        Set<String> changed = new TreeSet<>(names(report, "changed"));
        assertTrue(changed.containsAll(lagging), changed + " contains " + lagging);
        Set<String> touched = new TreeSet<>(deploymentWrites);
        touched.addAll(written("status ImageDeploy", cluster));
        touched.removeAll(conflicts);
        // A hand change is counted drifted, not changed, though its status is written to say so.
        Set<String> drifted = names(report, "drifted");
        Set<String> changedOrDrifted = new TreeSet<>(changed);
        changedOrDrifted.addAll(drifted);
        assertTrue(touched.containsAll(changed), touched + " contains " + changed);
        assertTrue(changedOrDrifted.containsAll(touched), changedOrDrifted + " contains " + touched);
        touched.removeAll(changed);
        assertTrue(drifted.containsAll(touched), "written beyond the changed: only drifted ones' status " + touched);
        assertEquals(changed, names(written, "changed"));
        assertEquals(drifted, names(written, "drifted"));
    }

    /** One pass of the rollouts area as RolloutResync runs it, over the in-memory cluster. */
    static AreaResult pass(RolloutServiceTest.World world, boolean report) {
        RolloutKeys.Found found = RolloutKeys.keys(imageDeploys(world.cluster), images(world.cluster),
                deployments(world.cluster), Set.of(RolloutNames.GROUP), null, true);
        RolloutTally tally = new RolloutTally();
        ResyncScope scope = new ResyncScope(null, report);
        AreaPass.run(RolloutServiceTest.LOOP, world.reconcilers.rollouts, found.rollouts(), scope, tally);
        AreaPass.run(RolloutServiceTest.LOOP, PruneReconciler.on(world.cluster, new RecordingEvents()), found.prunes(),
                scope, tally.prunes());
        assertTrue(world.reconcilers.passes.awaitIdle(Duration.ofSeconds(10)), "status passes run");
        return tally.result();
    }

    /**
     * At random: leave it, a newer build, a build not ready, suspend, rename, delete, drift, unown, foreign owner,
     * rename to a name taken by a Deployment Rekon does not manage.
     */
    static void bend(InMemoryRollouts cluster, int i, Random random) {
        ObjectNode idp = cluster.imageDeploys.get("team/idp-" + i);
        ObjectNode d = cluster.deployments.get("team/d-" + i);
        switch (random.nextInt(10)) {
            case 1 -> cluster.images.put("team/img-" + i, image(i, 2, true));
            case 2 -> cluster.images.put("team/img-" + i, image(i, 2, false));
            case 3 -> {
                ((ObjectNode) idp.get("spec")).put("suspend", true);
                if (random.nextBoolean()) {
                    cluster.images.put("team/img-" + i, image(i, 2, true));
                }
                if (random.nextBoolean()) {
                    rename(idp, i);
                }
            }
            case 4 -> rename(idp, i);
            case 5 -> cluster.imageDeploys.remove("team/idp-" + i);
            case 6 -> ((ObjectNode) d.at("/spec/template/spec/containers/0")).put("image", "hand/edit:" + i);
            case 7 -> {
                ((ObjectNode) d.get("metadata")).remove("ownerReferences");
                cluster.imageDeploys.remove("team/idp-" + i);
            }
            case 8 -> {
                ((ObjectNode) d.at("/metadata/ownerReferences/0")).put("apiVersion", "kpush.example/v1alpha1");
                cluster.imageDeploys.remove("team/idp-" + i);
            }
            case 9 -> {
                rename(idp, i);
                cluster.deployments.put("team/d-" + i + "-v2", (ObjectNode) RolloutServiceTest.json("""
                        {"apiVersion": "apps/v1", "kind": "Deployment",
                         "metadata": {"name": "d-%d-v2", "namespace": "team", "uid": "uid-foreign-%d", "resourceVersion": "3"},
                         "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.25"}]}}}}
                        """.formatted(i, i)));
            }
            default -> {
            }
        }
    }

    static void rename(ObjectNode idp, int i) {
        ((ObjectNode) idp.at("/spec/deployment/metadata")).put("name", "d-" + i + "-v2");
    }

    /** Each ImageDeploy follows its own kpack Image. */
    static void reference(InMemoryRollouts cluster, int i) {
        ((ObjectNode) cluster.imageDeploys.get("team/idp-" + i).at("/spec/deployment/spec/template/spec/containers/0"))
                .put("image", "REF=img-" + i);
    }

    static KpackImage image(int i, long build, boolean ready) {
        return new KpackImage("team", "img-" + i, "uid-img-" + i, "registry.local/team/img-" + i + "@sha256:"
                + String.valueOf(build).repeat(64), build, null, ready, ready ? null : "build failed");
    }

    static List<ImageDeployView> imageDeploys(InMemoryRollouts cluster) {
        return cluster.imageDeploys.values().stream().map(ImageDeployView::fromJson).toList();
    }

    static List<KpackImage> images(InMemoryRollouts cluster) {
        return new ArrayList<>(cluster.images.values());
    }

    /** The Deployments the watch of managed ones holds: those labelled as Rekon's. */
    static List<DeploymentView> deployments(InMemoryRollouts cluster) {
        return cluster.deployments.values().stream().filter(d -> "rekon".equals(d.path("metadata").path("labels")
                .path(RolloutNames.MANAGED_BY).asText())).map(DeploymentView::fromJson).toList();
    }

    static RolloutReport.Watched watched(InMemoryRollouts cluster) {
        return new RolloutReport.Watched(imageDeploys(cluster), deployments(cluster), Map.of(), images(cluster),
                Set.of(RolloutNames.GROUP));
    }

    static Set<String> names(AreaResult result, String what) {
        return result.objects().stream().filter(i -> what.equals(i.result())).map(ResyncItem::object)
                .map(o -> o.name()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The names of the objects the cluster saw written by {@code operation} ("delete Deployment", ...). */
    static Set<String> written(String operation, InMemoryRollouts cluster) {
        return cluster.writes.stream().filter(w -> w.startsWith(operation + " team/") && !w.endsWith("(failed)"))
                .map(w -> w.substring((operation + " team/").length())).collect(Collectors.toCollection(TreeSet::new));
    }

}
