package dev.rekon.buildpacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.status.BuildSection;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryImage;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;
import dev.rekon.status.StatusReport;

/**
 * Generated cluster states of the buildpacks area (Buildpacks and ClusterBuildpacks, Builders and ClusterBuilders
 * naming them, in namespaces Rekon may act in or not), converged by Rekon first, then bent at random: an image
 * whose digest moved with the same buildpack or a new version, an image gone or refused by its registry, one
 * readable again, a new generation, a status removed by hand, an object deleted; a Builder whose order changed.
 * For each: a report-mode resync's changed Buildpacks and failed objects are those a writing resync then writes
 * and counts; every row of the page the writing pass changes was written and named by the report, and a page row
 * whose digest is not the one its image now points at is named too; after the writing pass a report finds nothing
 * left to change. The report reads the images of the buildpacks it refreshes, as the writing pass then does, and
 * plans the Builders naming them against the statuses those refreshes would write; a converged pass reads none.
 */
class BuildpackPropertyTest {

    static final String[] NAMESPACES = { "team", "other" };

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 })
    void thePageTheReportAndTheWritesAgree(long seed) {
        Random random = new Random(seed);
        InMemoryBuildpacks cluster = new InMemoryBuildpacks();
        NamespacePolicy policy = random.nextInt(3) == 0 ? NamespacePolicy.parse("team") : NamespacePolicy.parse("*");
        BuildpackService service = BuildpackServiceTest.service(cluster, NamespaceGuard.of(policy));
        BuildpackResync resync = BuildpackResyncTableTest.resync(cluster, service);
        BuildpackReport report = BuildpackReport.over(service);
        int n = 2 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            cluster.put(buildpack(i, random.nextBoolean() ? null : NAMESPACES[random.nextInt(2)]));
            if (random.nextInt(5) > 0) {
                cluster.images.put(image(i), found(i, 1, 1));
            }
        }
        int m = 1 + random.nextInt(5);
        for (int j = 0; j < m; j++) {
            cluster.put(builder(j, random.nextBoolean() ? null : NAMESPACES[random.nextInt(2)], order(n, random)));
        }
        for (int pass = 0; pass < 3 && resync.resync(ResyncScope.all()).changed() > 0; pass++) {
            // converging: a Builder resolved before the buildpack it names was read is resolved again
        }
        for (int i = 0; i < n; i++) {
            bendBuildpack(cluster, i, random);
        }
        for (int j = 0; j < m; j++) {
            bendBuilder(cluster, j, n, random);
        }
        clearLogs(cluster);

        StatusReport before = page(cluster, policy, report);
        assertEquals(List.of(), cluster.imageReads, "the page reads no image");
        AreaResult reported = resync.resync(new ResyncScope(null, true));
        assertEquals(List.of(), cluster.writes, "a report-mode pass writes nothing");
        List<String> reportReads = List.copyOf(cluster.imageReads);
        Map<String, String> heads = heads(cluster);
        clearLogs(cluster);
        AreaResult written = resync.resync(ResyncScope.all());
        assertEquals(cluster.imageReads, reportReads, "a report-mode pass reads the images the writing pass reads "
                + "(those of the buildpacks it refreshes), no other");
        StatusReport after = page(cluster, policy, report);

        Set<String> changed = names(reported, "changed");
        assertEquals(names(reported, "failed"), names(written, "failed"), "report and writing pass: the objects failed");
        assertEquals(names(written, "changed"), writtenStatuses(cluster), "the writing pass counts what it wrote "
                + cluster.writes);
        assertEquals(buildpacks(changed), buildpacks(writtenStatuses(cluster)), "report and writes: the Buildpacks "
                + "written; report " + reported + ", written " + written);
        assertEquals(changed, writtenStatuses(cluster), "report and writes: the objects written; report " + reported
                + ", written " + written);
        assertEquals(reasons(reported, "changed"), reasons(written, "changed"), "report and writing pass: why");
        Set<String> rowsMoved = moved(before, after);
        assertTrue(writtenStatuses(cluster).containsAll(rowsMoved), "every row that moved was written " + rowsMoved);
        assertTrue(changed.containsAll(rowsMoved), "every row the pass changed was in the report: " + changed
                + " contains " + rowsMoved);
        for (BuildSection.BuildpackRow row : before.section(BuildSection.class).buildpacks()) {
            String head = heads.get(row.kind() + " " + name(row.namespace(), row.name()));
            if (head != null && !head.equals(row.digest())) {
                assertTrue(changed.contains(row.kind() + " " + name(row.namespace(), row.name())), "the page shows "
                        + row.digest() + " where the image now points at " + head + ": " + reported);
            }
        }
        clearLogs(cluster);
        AreaResult again = resync.resync(new ResyncScope(null, true));
        assertEquals(Set.of(), names(again, "changed"), "after the writing pass nothing is left to change");
        assertEquals(List.of(), cluster.imageReads, "a converged pass reads no image, only HEADs");
        assertEquals(names(written, "failed"), names(again, "failed"));
    }

    /**
     * At random: leave it, move the digest (same or new version), gone, refused, readable again, a new generation,
     * its status removed by hand, deleted, its registry unreachable.
     */
    static void bendBuildpack(InMemoryBuildpacks cluster, int i, Random random) {
        ObjectNode bp = find(cluster, "bp-" + i, BuildpackSource.BUILDPACK, BuildpackSource.CLUSTER_BUILDPACK);
        switch (random.nextInt(10)) {
            case 1 -> cluster.images.put(image(i), found(i, 1, 2));
            case 2 -> cluster.images.put(image(i), found(i, 2, 3));
            case 3 -> cluster.images.remove(image(i));
            case 4 -> cluster.images.put(image(i), new ImageRead.Unreadable("RegistryUnauthorized", image(i)
                    + ": the registry refused the pull secret"));
            case 5 -> cluster.images.put(image(i), found(i, 1, 1));
            case 6 -> ((ObjectNode) bp.get("metadata")).put("generation", 2);
            case 7 -> bp.remove("status");
            case 8 -> cluster.objects.values().remove(bp);
            case 9 -> cluster.unreachable.add(image(i));
            default -> {
            }
        }
    }

    /** At random: leave it, a new order (next generation), its status removed by hand, deleted. */
    static void bendBuilder(InMemoryBuildpacks cluster, int j, int n, Random random) {
        ObjectNode b = find(cluster, "builder-" + j, BuilderView.BUILDER, BuilderView.CLUSTER_BUILDER);
        switch (random.nextInt(4)) {
            case 1 -> {
                ((ObjectNode) b.get("spec")).set("order", order(n, random));
                ((ObjectNode) b.get("metadata")).put("generation", 2);
            }
            case 2 -> b.remove("status");
            case 3 -> cluster.objects.values().remove(b);
            default -> {
            }
        }
    }

    static ObjectNode find(InMemoryBuildpacks cluster, String name, String... kinds) {
        return cluster.objects.values().stream().filter(o -> name.equals(o.at("/metadata/name").asText())
                && List.of(kinds).contains(o.path("kind").asText())).findFirst().orElseThrow();
    }

    static ObjectNode buildpack(int i, String namespace) {
        ObjectNode o = BuildpackServiceTest.JSON.createObjectNode().put("apiVersion", BuildpackView.API_VERSION)
                .put("kind", namespace == null ? BuildpackSource.CLUSTER_BUILDPACK : BuildpackSource.BUILDPACK);
        ObjectNode meta = o.putObject("metadata").put("name", "bp-" + i).put("generation", 1);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        o.putObject("spec").putObject("source").put("image", image(i));
        return o;
    }

    /** One or two groups, each naming one or two buildpacks by id (sometimes one nobody provides, or a version). */
    static ArrayNode order(int n, Random random) {
        ArrayNode order = BuildpackServiceTest.JSON.createArrayNode();
        for (int g = 0, groups = 1 + random.nextInt(2); g < groups; g++) {
            ArrayNode group = order.addObject().putArray("group");
            for (int k = 0, refs = 1 + random.nextInt(2); k < refs; k++) {
                int i = random.nextInt(n + 1);
                ObjectNode ref = group.addObject().put("id", i == n ? "acme/missing" : "acme/bp-" + i);
                if (random.nextInt(4) == 0) {
                    ref.put("version", "1.0.1");
                }
            }
        }
        return order;
    }

    static ObjectNode builder(int j, String namespace, ArrayNode order) {
        ObjectNode o = BuildpackServiceTest.JSON.createObjectNode().put("apiVersion", BuildpackView.API_VERSION)
                .put("kind", namespace == null ? BuilderView.CLUSTER_BUILDER : BuilderView.BUILDER);
        ObjectNode meta = o.putObject("metadata").put("name", "builder-" + j).put("generation", 1);
        ObjectNode spec = o.putObject("spec").put("tag", "registry.local/builders/b-" + j);
        if (namespace != null) {
            meta.put("namespace", namespace);
            spec.put("serviceAccountName", "default");
        } else {
            spec.putObject("serviceAccountRef").put("namespace", "team").put("name", "default");
        }
        spec.set("order", order);
        return o;
    }

    static String image(int i) {
        return "registry.local/bp/bp-" + i + ":1";
    }

    /** The buildpackage of {@code acme/bp-i} at version 1.0.{version}, its manifest digest made of {@code digest}. */
    static ImageRead found(int i, int version, int digest) {
        String id = "acme/bp-" + i;
        String v = "1.0." + version;
        String diffId = "sha256:" + Integer.toHexString(i % 16).repeat(32) + Integer.toHexString(version).repeat(32);
        ObjectNode config = BuildpackServiceTest.JSON.createObjectNode();
        config.putObject("rootfs").put("type", "layers").putArray("diff_ids").add(diffId);
        ObjectNode labels = config.putObject("config").putObject("Labels");
        labels.put("io.buildpacks.buildpackage.metadata", "{\"id\":\"" + id + "\",\"version\":\"" + v
                + "\",\"stacks\":[{\"id\":\"*\"}]}");
        labels.put("io.buildpacks.buildpack.layers", "{\"" + id + "\":{\"" + v + "\":{\"api\":\"0.7\",\"stacks\":"
                + "[{\"id\":\"*\"}],\"layerDiffID\":\"" + diffId + "\",\"name\":\"" + id + "\"}}}");
        String manifest = "sha256:" + Integer.toHexString(i % 16).repeat(48) + Integer.toHexString(digest).repeat(16);
        return new ImageRead.Found(new RegistryImage(ImageReference.parse(image(i)), manifest,
                "application/vnd.oci.image.manifest.v1+json", List.of(new RegistryImage.Layer("sha256:"
                        + Integer.toHexString(version).repeat(64), 100 + i, "application/vnd.oci.image.layer.v1.tar+gzip")),
                config));
    }

    /** The page as {@link BuildpackReport} plans it where {@code policy} lets Rekon act. */
    static StatusReport page(InMemoryBuildpacks cluster, NamespacePolicy policy, BuildpackReport report) {
        List<BuildpackView> bps = new ArrayList<>();
        List<BuilderView> bs = new ArrayList<>();
        for (ObjectNode o : cluster.objects.values()) {
            if (!policy.allows(o.at("/metadata/namespace").asText(null))) {
                continue;
            }
            String kind = o.path("kind").asText();
            if (kind.endsWith("Buildpack")) {
                bps.add(BuildpackView.of(o.deepCopy()));
            } else {
                bs.add(BuilderView.of(o.deepCopy()));
            }
        }
        Instant now = report.buildpackReconciler.clock.instant();
        return report.planned(StatusReport.empty(now, null), bps, bs, null, now);
    }

    /** The digest each Buildpack's image points at now, by object, where a HEAD answers one. */
    static Map<String, String> heads(InMemoryBuildpacks cluster) {
        Map<String, String> heads = new HashMap<>();
        for (ObjectNode o : cluster.objects.values()) {
            if (o.path("kind").asText().endsWith("Buildpack") && !cluster.unreachable.contains(image(o))
                    && cluster.images.get(image(o)) instanceof ImageRead.Found f) {
                heads.put(o.path("kind").asText() + " " + name(o.at("/metadata/namespace").asText(null),
                        o.at("/metadata/name").asText()), f.image().digest());
            }
        }
        return heads;
    }

    static String image(ObjectNode buildpack) {
        return buildpack.at("/spec/source/image").asText();
    }

    /** The rows that differ between two pages, as {@code Kind ns/name}. */
    static Set<String> moved(StatusReport before, StatusReport after) {
        Map<String, Object> was = new HashMap<>();
        before.section(BuildSection.class).buildpacks().forEach(r -> was.put(r.kind() + " " + name(r.namespace(), r.name()), r));
        before.section(BuildSection.class).builders().forEach(r -> was.put(r.kind() + " " + name(r.namespace(), r.name()), r));
        Set<String> moved = new TreeSet<>();
        after.section(BuildSection.class).buildpacks().forEach(r -> differs(was, r.kind() + " " + name(r.namespace(), r.name()), r, moved));
        after.section(BuildSection.class).builders().forEach(r -> differs(was, r.kind() + " " + name(r.namespace(), r.name()), r, moved));
        return moved;
    }

    private static void differs(Map<String, Object> was, String key, Object row, Set<String> moved) {
        if (was.containsKey(key) && !Objects.equals(was.get(key), row)) {
            moved.add(key);
        }
    }

    static Set<String> buildpacks(Set<String> objects) {
        return objects.stream().filter(o -> o.split(" ")[0].endsWith("Buildpack"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static Set<String> builders(Set<String> objects) {
        return objects.stream().filter(o -> o.split(" ")[0].endsWith("Builder"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static String name(String namespace, String name) {
        return namespace == null ? name : namespace + "/" + name;
    }

    /** The objects with {@code what} as their result, each with the reason the pass gave. */
    static Set<String> reasons(AreaResult result, String what) {
        return result.objects().stream().filter(i -> what.equals(i.result())).map(i -> i.object().kind() + " "
                + name(i.object().namespace(), i.object().name()) + " " + i.reason())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static Set<String> names(AreaResult result, String what) {
        return result.objects().stream().filter(i -> what.equals(i.result())).map(ResyncItem::object)
                .map(o -> o.kind() + " " + name(o.namespace(), o.name())).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The objects whose status the cluster saw written (not failed, not lost to a conflict). */
    static Set<String> writtenStatuses(InMemoryBuildpacks cluster) {
        return cluster.writes.stream().filter(w -> w.startsWith("status ") && !w.endsWith(")"))
                .map(w -> w.substring("status ".length())).collect(Collectors.toCollection(TreeSet::new));
    }

    static void clearLogs(InMemoryBuildpacks cluster) {
        cluster.writes.clear();
        cluster.imageReads.clear();
        cluster.heads.clear();
    }
}
