package dev.rekon.modules.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.status.LifecycleRow;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;
import dev.rekon.testing.ServedKinds;

/**
 * Generated cluster states of the module lifecycle (Kymas each listing one module, installed by Rekon first,
 * then bent at random: a new release on the channel, a downgrade or a tampered release refused (while an object
 * is deleted or changed by hand), a version no template describes, an object deleted or changed by hand, or
 * taken by another module, the module no longer listed, {@code managed: false}, a module listed only now, with
 * or without an object of someone else in its way). For each, three answers must name the same modules: the
 * status page's claims (its rows pending, with the objects they would apply and prune), a report-mode resync's
 * reply (changed, and failed where refused), and what a writing resync then writes on the in-memory cluster.
 */
class LifecyclePropertyTest {

    static final List<String> MODULES = List.of("widgets", "gadgets", "gizmos", "sprockets", "trinkets", "baubles");
    static final List<String> VALID = List.of("0.4.0", "0.4.1", "1.0.0", "1.0.1");
    static final String TAMPERED = "1.1.0";

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 })
    void thePageTheReportAndTheWritesAgree(long seed) throws Exception {
        Random random = new Random(seed);
        LifecycleScene scene = new LifecycleScene();
        KymaResync resync = resync(scene);
        List<String> modules = MODULES.subList(0, 2 + random.nextInt(MODULES.size() - 1));
        Set<String> late = new TreeSet<>();
        for (String m : modules) {
            for (String v : VALID) {
                scene.publish(m, v, false);
            }
            scene.publish(m, TAMPERED, true).channel(m, VALID.get(1 + random.nextInt(2)));
            if (random.nextInt(6) == 0) {
                late.add(m);
                scene.kyma("k-" + m, m, null);
            } else {
                scene.kyma("k-" + m, m, true);
            }
        }
        for (int pass = 0; pass < 3 && resync.resync(ResyncScope.all()).changed() > 0; pass++) {
            // installing: a module Ready only once its objects are there is written once more
        }
        for (String m : modules) {
            if (late.contains(m)) {
                listLate(scene, m, random);
            } else {
                bend(scene, m, random);
            }
        }
        scene.forgetLogs();

        AreaResult report = resync.resync(new ResyncScope(null, true));
        assertEquals(List.of(), scene.cluster.writes, "a report-mode pass writes nothing");
        List<LifecycleRow> page = scene.board.rows(null);
        Map<KymaModule, Inventory> inventories = new LinkedHashMap<>(scene.cluster.inventories);
        AreaResult written = resync.resync(ResyncScope.all());

        Set<String> pending = kymas(page.stream().filter(LifecycleRow::pending));
        Set<String> refused = kymas(page.stream().filter(r -> "REFUSED".equals(r.action())));
        Set<String> pendingNotRefused = new TreeSet<>(pending);
        pendingNotRefused.removeAll(refused);
        String said = "; page " + page + "; report " + report + "; writes " + scene.cluster.writes;
        assertEquals(pendingNotRefused, names(report, "changed"), "page and report: the modules that change" + said);
        assertEquals(refused, names(report, "failed"), "page and report: the modules refused" + said);
        assertEquals(pending, writtenKymas(scene, inventories), "page and writes: the modules written" + said);
        assertEquals(names(report, "changed"), names(written, "changed"), "report and writing pass" + said);
        assertEquals(names(report, "failed"), names(written, "failed"), "report and writing pass" + said);
        for (LifecycleRow row : page) {
            String m = row.module();
            assertEquals(row.pendingApply(), written(scene, "apply ", m).size(), "objects applied of " + m + said);
            assertEquals(row.pendingPrunes().stream().map(Object::toString).toList(), written(scene, "delete ", m),
                    "objects pruned of " + m + ", in order" + said);
        }

        scene.forgetLogs();
        AreaResult again = resync.resync(new ResyncScope(null, true));
        assertEquals(Set.of(), names(again, "changed"), "after the writing pass nothing is left to change: " + again
                + "; the writing pass " + written + "; page " + page);
        assertEquals(Set.of(), kymas(scene.board.rows(null).stream().filter(LifecycleRow::pending)));
        assertEquals(refused, names(again, "failed"), "what was refused stays refused");
    }

    /** The lifecycle's pass as the resync runs it, over the scene's loop and reconciler. */
    static KymaResync resync(LifecycleScene scene) {
        KymaResync resync = new KymaResync();
        resync.service = scene.service;
        resync.loop = scene.service.loop;
        resync.reconciler = scene.service.reconciler;
        resync.kinds = ServedKinds.all();
        return resync;
    }

    /**
     * At random: leave it, upgrade, a downgrade or a tampered release (with a hand deletion or change beside), a
     * version without template, a hand deletion, a hand change, an object taken, unlisted, unmanaged.
     */
    static void bend(LifecycleScene scene, String m, Random random) {
        String installed = scene.cluster.inventories.get(new KymaModule(LifecycleScene.KCP, "k-" + m, m)).version();
        switch (random.nextInt(10)) {
            case 1 -> scene.channel(m, VALID.get(VALID.indexOf(installed) + 1));
            case 2 -> {
                scene.channel(m, VALID.get(0));
                byHand(scene, m, random);
            }
            case 3 -> {
                scene.channel(m, TAMPERED);
                byHand(scene, m, random);
            }
            case 4 -> scene.channel(m, "2.0.0");
            case 5 -> scene.cluster.objects.remove(pick(scene, m, random));
            case 6 -> change(scene.cluster.objects.get(pick(scene, m, random)));
            case 7 -> scene.cluster.objects.get(pick(scene, m, random)).with("metadata").with("labels")
                    .put(ModuleDeployment.MODULE_LABEL, "other");
            case 8 -> scene.kyma("k-" + m, m, null);
            case 9 -> scene.kyma("k-" + m, m, false);
            default -> {
            }
        }
    }

    /** Nothing, a deletion or a change by hand of one of the module's objects. */
    static void byHand(LifecycleScene scene, String m, Random random) {
        switch (random.nextInt(3)) {
            case 1 -> scene.cluster.objects.remove(pick(scene, m, random));
            case 2 -> change(scene.cluster.objects.get(pick(scene, m, random)));
            default -> {
            }
        }
    }

    /** The module listed only now; sometimes with its ServiceAccount there already, someone else's. */
    static void listLate(LifecycleScene scene, String m, Random random) {
        scene.kyma("k-" + m, m, true);
        if (random.nextBoolean()) {
            ObjectNode sa = LifecycleScene.object("v1", "ServiceAccount", "controller", "other");
            sa.with("metadata").put("namespace", m);
            scene.cluster.put(sa);
        }
    }

    /** One of the module's namespaced objects, by its key in the cluster. */
    static String pick(LifecycleScene scene, String m, Random random) {
        List<String> keys = scene.cluster.objects.entrySet().stream()
                .filter(e -> m.equals(e.getValue().at("/metadata/namespace").asText())).map(Map.Entry::getKey).toList();
        return keys.get(random.nextInt(keys.size()));
    }

    /** A change by hand of a field the release declares. */
    static void change(ObjectNode o) {
        switch (o.path("kind").asText()) {
            case "Deployment" -> o.with("spec").with("template").with("spec").withArray("containers").addObject()
                    .put("name", "sidecar").put("image", "hand/edit");
            case "ConfigMap" -> o.with("data").put("level", "debug");
            default -> o.with("spec").put("size", 3);
        }
    }

    /** The Kymas (one per module) named by the pass's items of this result. */
    static Set<String> names(AreaResult result, String what) {
        return result.objects().stream().filter(i -> what.equals(i.result())).map(ResyncItem::object)
                .map(o -> o.name()).collect(Collectors.toCollection(TreeSet::new));
    }

    static Set<String> kymas(java.util.stream.Stream<LifecycleRow> rows) {
        return rows.map(LifecycleRow::kyma).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The Kymas whose module the cluster saw written: its objects, its inventory, its Kyma's status. */
    static Set<String> writtenKymas(LifecycleScene scene, Map<KymaModule, Inventory> before) {
        Set<String> kymas = new TreeSet<>();
        for (String w : scene.cluster.writes) {
            if (w.startsWith("status Kyma ")) {
                kymas.add(w.split(" ")[2].split("/")[1]);
            } else if (w.startsWith("apply ") || w.startsWith("delete ")) {
                kymas.add("k-" + module(w));
            }
        }
        Set<KymaModule> keys = new java.util.HashSet<>(before.keySet());
        keys.addAll(scene.cluster.inventories.keySet());
        keys.stream().filter(k -> !Objects.equals(before.get(k), scene.cluster.inventories.get(k)))
                .forEach(k -> kymas.add(k.kyma()));
        return kymas;
    }

    /** The objects of module {@code m} the cluster saw written by {@code operation}, in order. */
    static List<String> written(LifecycleScene scene, String operation, String m) {
        List<String> objects = new ArrayList<>();
        scene.cluster.writes.stream().filter(w -> w.startsWith(operation) && m.equals(module(w)))
                .forEach(w -> objects.add(w.substring(operation.length())));
        return objects;
    }

    /** The module of an object write: its namespace, or the name of its Namespace or CRD. */
    static String module(String write) {
        String[] words = write.split(" ");
        return words[words.length - 1].split("[/.]")[0];
    }
}
