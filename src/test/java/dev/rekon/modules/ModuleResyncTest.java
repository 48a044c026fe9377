package dev.rekon.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncScope;
import dev.rekon.testing.Failures;
import dev.rekon.testing.RecordingEvents;

/**
 * The modules pass over the in-memory gateway: each Deployment is counted once, a transient failure of one is
 * counted as failed (never thrown) while the others converge, a report writes nothing, a conflict re-plans, and
 * a second pass over the converged modules writes nothing.
 */
class ModuleResyncTest {

    final InMemoryModules cluster = new InMemoryModules();
    final RecordingEvents events = new RecordingEvents();
    ModuleResync resync;

    @BeforeEach
    void setUp() {
        resync = new ModuleResync();
        resync.gateway = cluster;
        resync.kinds = dev.rekon.testing.ServedKinds.all();
        resync.trust = new ModuleTrust();
        resync.trust.publicKeys = Optional.empty();
        resync.trust.maintenanceWindow = Optional.empty();
        resync.trust.load();
        resync.loop = ModuleFixtures.loop();
        resync.modules = ModuleFixtures.reconciler(cluster, resync.trust, Clock.systemUTC(), events);
        for (String module : List.of("kpack", "other")) {
            cluster.deployment(new ModuleDeployment(ref(module), null, module, "0.4.1", "regular",
                    Map.of("controller", "registry.example/kpack/controller:0.4.1"), 1, null));
            cluster.kymaObjects.add(template(module, "0.4.3"));
            cluster.kymaObjects.add(releaseMeta(module, "0.4.3"));
        }
    }

    @Test
    void aTransientFailureOfOneModuleIsCountedAndTheOthersConverge() {
        cluster.failNextPatch(Failures.unavailable("patching kpack"));
        AreaResult result = resync.resync(ResyncScope.all());
        assertEquals(2, result.checked());
        assertEquals(1, result.changed());
        assertEquals(1, result.failed());
        assertEquals(List.of("kpack failed WriteFailed", "other changed Upgraded"), result.objects().stream()
                .map(i -> i.object().name() + " " + i.result() + " " + i.reason()).toList());
        assertEquals("0.4.3", cluster.deployments.get("other").version());
    }

    @Test
    void aReportPlansAndWritesNothing() {
        AreaResult result = resync.resync(new ResyncScope(null, true));
        assertEquals(2, result.changed());
        assertEquals(List.of(), cluster.writes);
    }

    @Test
    void aConflictReadsAgainAndPlansAgainAndASecondPassWritesNothing() {
        cluster.failNextPatch(Failures.conflict("patching kpack"));
        AreaResult result = resync.resync(new ResyncScope("team", false));
        assertEquals(2, result.changed(), result.toString());
        assertEquals(3, cluster.writes.size(), cluster.writes.toString());

        assertEquals(new AreaResult("modules", 2, 0, 2, 0, 0, List.of()), resync.resync(ResyncScope.all()));
        assertEquals(3, cluster.writes.size());
    }

    @Test
    void aManualChangeIsReportedOnceAndLeftAlone() {
        resync.resync(ResyncScope.all());
        ModuleDeployment applied = cluster.deployments.get("kpack");
        cluster.deployments.put("kpack", new ModuleDeployment(applied.ref(), "900", "kpack", "0.4.3", "regular",
                Map.of("controller", "registry.example/kpack/controller:hotfix"), 1, null, applied.appliedImages(),
                false, null));
        int before = cluster.writes.size();

        AreaResult first = resync.resync(ResyncScope.all());
        assertEquals(1, first.drifted(), first.toString());
        assertEquals(List.of("Warning ManualChange Deployment team/kpack"), events.recorded);
        assertEquals(before + 1, cluster.writes.size(), "the report is recorded on the Deployment");
        assertEquals("registry.example/kpack/controller:hotfix",
                cluster.deployments.get("kpack").containerImages().get("controller"));

        AreaResult second = resync.resync(ResyncScope.all());
        assertEquals(1, second.drifted());
        assertEquals(1, events.recorded.size());
        assertEquals(before + 1, cluster.writes.size());
    }

    static ObjectRef ref(String module) {
        return new ObjectRef("apps/v1", "Deployment", "team", module);
    }

    static JsonNode template(String module, String version) {
        ObjectNode t = TestSigning.JSON.createObjectNode().put("kind", KymaModules.TEMPLATE);
        t.putObject("metadata").put("name", module + "-" + version).put("namespace", "kcp");
        t.putObject("spec").put("moduleName", module).put("version", version)
                .set("descriptor", TestSigning.kpackDescriptor(version));
        return t;
    }

    static JsonNode releaseMeta(String module, String version) {
        ObjectNode m = TestSigning.JSON.createObjectNode().put("kind", KymaModules.RELEASE_META);
        m.putObject("metadata").put("name", module).put("namespace", "kcp");
        m.putObject("spec").put("moduleName", module).putArray("channels").addObject().put("channel", "regular")
                .put("version", version);
        return m;
    }
}
