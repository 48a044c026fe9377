package dev.rekon.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.modules.status.ModuleSection;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;
import dev.rekon.status.StatusReport;
import dev.rekon.testing.RecordingEvents;

/**
 * Generated cluster states of the module Deployments (modules with one to three Deployments on the channels
 * {@code regular} and {@code fast}, whose ModuleReleaseMeta offers the version they run, a newer patch, a major
 * step, an older version, a version no ModuleTemplate describes, or nothing; Deployments suspended, changed by
 * hand, or lagging behind the others). For each, three answers must name the same modules and Deployments: the
 * status page's claims (its Pending rows, and its HeldBack ones), a report-mode resync's reply, and what a
 * writing resync then patches on the in-memory cluster.
 */
class ModulePropertyTest {

    static final List<String> MODULES = List.of("kpack", "alpha", "beta", "gamma");
    static final List<String> TEMPLATES = List.of("0.4.0", "0.4.1", "0.4.3", "2.0.0");
    static final List<String> OFFERS = List.of("0.4.1", "0.4.3", "2.0.0", "0.4.0", "0.5.0");
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC);

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 })
    void thePageTheReportAndTheWritesAgree(long seed) {
        Random random = new Random(seed);
        InMemoryModules cluster = new InMemoryModules();
        ModuleResync resync = resync(cluster);
        for (String module : MODULES.subList(0, 1 + random.nextInt(MODULES.size()))) {
            for (String v : TEMPLATES) {
                cluster.kymaObjects.add(ModuleResyncTest.template(module, v));
            }
            if (random.nextInt(6) > 0) {
                cluster.kymaObjects.add(releaseMeta(module, OFFERS.get(random.nextInt(OFFERS.size())),
                        OFFERS.get(random.nextInt(OFFERS.size()))));
            }
            for (int j = 0, n = 1 + random.nextInt(3); j < n; j++) {
                cluster.deployment(deployment(module, j, random));
            }
        }
        cluster.writes.clear();

        StatusReport page = ModuleReport.over(resync.loop, CLOCK, resync.trust).addTo(StatusReport.empty(CLOCK.instant(),
                null), watched(cluster), null);
        AreaResult report = resync.resync(new ResyncScope(null, true));
        assertEquals(List.of(), cluster.writes, "a report-mode pass writes nothing");
        Map<String, ModuleDeployment> before = new LinkedHashMap<>(cluster.deployments);
        AreaResult written = resync.resync(ResyncScope.all());

        String said = "; page " + page.section(ModuleSection.class).modules() + "; report " + report + "; writes " + cluster.writes;
        Set<String> updated = new TreeSet<>();
        Set<String> recorded = new TreeSet<>();
        cluster.deployments.forEach((name, after) -> {
            ModuleDeployment was = before.get(name);
            if (!was.version().equals(after.version()) || !was.containerImages().equals(after.containerImages())) {
                updated.add(name);
            } else if (!was.equals(after)) {
                recorded.add(name);
            }
        });
        Set<String> pending = rows(page, "Pending");
        assertEquals(pending, channels(updated, before), "page and writes: the modules and channels updated" + said);
        assertEquals(updated, names(report, "changed"), "report and writes: the Deployments updated" + said);
        assertEquals(names(report, "changed"), names(written, "changed"), "report and writing pass" + said);
        assertEquals(names(report, "failed"), names(written, "failed"), "report and writing pass" + said);
        assertEquals(names(report, "drifted"), names(written, "drifted"), "report and writing pass" + said);
        assertTrue(names(report, "drifted").containsAll(recorded), "beyond the updated, only a hand change is "
                + "recorded on its Deployment " + recorded + said);
        Set<String> heldBack = rows(page, "HeldBack");
        assertEquals(heldBack, channels(names(report, "failed"), before), "page and report: the modules refused"
                + said);

        AreaResult again = resync.resync(new ResyncScope(null, true));
        assertEquals(Set.of(), names(again, "changed"), "after the writing pass nothing is left to change" + said);
        StatusReport after = ModuleReport.over(resync.loop, CLOCK, resync.trust).addTo(StatusReport.empty(
                CLOCK.instant(), null), watched(cluster), null);
        assertEquals(Set.of(), rows(after, "Pending"), "and the page has no Pending row left");
    }

    /** The modules pass over the in-memory cluster, as {@link ModuleResyncTest} wires it. */
    static ModuleResync resync(InMemoryModules cluster) {
        ModuleResync resync = new ModuleResync();
        resync.gateway = cluster;
        resync.kinds = dev.rekon.testing.ServedKinds.all();
        resync.trust = ModuleFixtures.trust(false);
        resync.loop = ModuleFixtures.loop();
        resync.modules = ModuleFixtures.reconciler(cluster, resync.trust, CLOCK, new RecordingEvents());
        return resync;
    }

    /** At random: on channel regular or fast, running 0.4.1 as Rekon applied it, suspended, changed by hand, lagging. */
    static ModuleDeployment deployment(String module, int j, Random random) {
        String channel = random.nextInt(4) == 0 ? "fast" : "regular";
        String version = "0.4.1";
        Map<String, String> applied = images(version);
        Map<String, String> running = applied;
        boolean suspended = false;
        switch (random.nextInt(6)) {
            case 1 -> suspended = true;
            case 2 -> running = Map.of("controller", ModuleFixtures.REGISTRY + "controller:hotfix", "webhook",
                    applied.get("webhook"));
            case 3 -> {
                version = "0.4.0";
                applied = images(version);
                running = applied;
            }
            default -> {
            }
        }
        return new ModuleDeployment(new ObjectRef("apps/v1", "Deployment", "team", module + "-" + j), "1", module,
                version, channel, running, 1, null, applied, suspended, null);
    }

    static Map<String, String> images(String version) {
        return Map.of("controller", ModuleFixtures.REGISTRY + "controller:" + version, "webhook",
                ModuleFixtures.REGISTRY + "webhook:" + version);
    }

    static ObjectNode releaseMeta(String module, String regular, String fast) {
        ObjectNode m = TestSigning.JSON.createObjectNode().put("kind", KymaModules.RELEASE_META);
        m.putObject("metadata").put("name", module).put("namespace", "kcp");
        ArrayNode channels = m.putObject("spec").put("moduleName", module).putArray("channels");
        channels.addObject().put("channel", "regular").put("version", regular);
        channels.addObject().put("channel", "fast").put("version", fast);
        return m;
    }

    /** What the page's watches hold: the Deployments, ModuleReleaseMetas and ModuleTemplates. */
    static ModuleReport.Watched watched(InMemoryModules cluster) {
        List<ReleaseMetaView> metas = cluster.list(KymaKind.RELEASE_META, null);
        List<ModuleTemplateView> templates = cluster.list(KymaKind.TEMPLATE, null);
        return new ModuleReport.Watched(new ArrayList<>(cluster.deployments.values()), metas, templates);
    }

    /** The page's rows in {@code state}, as {@code module channel}. */
    static Set<String> rows(StatusReport page, String state) {
        return page.section(ModuleSection.class).modules().stream().filter(r -> state.equals(r.state())).map(r -> r.module() + " " + r.channel())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The modules and channels of these Deployments, as {@code module channel}. */
    static Set<String> channels(Set<String> deployments, Map<String, ModuleDeployment> by) {
        return deployments.stream().map(by::get).map(d -> d.module() + " " + d.channel())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static Set<String> names(AreaResult result, String what) {
        return result.objects().stream().filter(i -> what.equals(i.result())).map(ResyncItem::object)
                .map(ObjectRef::name).collect(Collectors.toCollection(TreeSet::new));
    }
}
