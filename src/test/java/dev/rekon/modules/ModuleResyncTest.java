package dev.rekon.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.ModulePlan.DeploymentPatch;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncItem;
import dev.rekon.resync.ResyncScope;

/**
 * The modules pass over an in-memory gateway: each Deployment is counted once, a transient failure of one is
 * counted as failed (never thrown) while the others converge, a report writes nothing, and a conflict re-plans.
 */
class ModuleResyncTest {

    final List<DeploymentPatch> written = new ArrayList<>();
    final List<String> failing = new ArrayList<>();
    final List<ModuleDeployment> installed = new ArrayList<>();
    int conflicts;
    ModuleResync resync;

    @BeforeEach
    void setUp() {
        resync = new ModuleResync();
        resync.gateway = new InMemory();
        resync.trust = new ModuleTrust();
        resync.trust.publicKeys = Optional.empty();
        resync.trust.maintenanceWindow = Optional.empty();
        resync.trust.load();
        resync.manualChanges = new ModuleManualChanges() {
            @Override
            public void report(List<ModuleHolds.Hold> holds) {
                // reporting is ModuleManualChanges' own concern; the end-to-end test covers it
            }
        };
        installed.add(deployment("kpack", "0.4.1"));
        installed.add(deployment("other", "0.4.1"));
    }

    @Test
    void aTransientFailureOfOneModuleIsCountedAndTheOthersConverge() {
        failing.add("other");
        AreaResult result = resync.resync(ResyncScope.all());
        assertEquals(2, result.checked());
        assertEquals(1, result.changed());
        assertEquals(1, result.failed());
        assertEquals(new ResyncItem(ref("other"), "failed", "WriteFailed", "apiserver unavailable"),
                result.objects().get(1));
        assertEquals(List.of(ref("kpack")), written.stream().map(DeploymentPatch::ref).toList());
    }

    @Test
    void aReportPlansAndWritesNothing() {
        AreaResult result = resync.resync(new ResyncScope(null, true));
        assertEquals(2, result.changed());
        assertEquals(List.of(), written);
    }

    @Test
    void aConflictReadsAgainAndPlansAgain() {
        conflicts = 1;
        AreaResult result = resync.resync(new ResyncScope("team", false));
        assertEquals(2, result.changed(), result.toString());
        assertEquals(2, written.size());
    }

    static ModuleDeployment deployment(String module, String version) {
        return new ModuleDeployment(ref(module), "7", module, version, "regular",
                Map.of("controller", "registry.example/kpack/controller:" + version), 1, null);
    }

    static ObjectRef ref(String module) {
        return new ObjectRef("apps/v1", "Deployment", "team", module);
    }

    static JsonNode template(String module, String version) {
        ObjectNode t = TestSigning.JSON.createObjectNode();
        t.putObject("metadata").put("name", module + "-" + version).put("namespace", "kcp");
        t.putObject("spec").put("moduleName", module).put("version", version)
                .set("descriptor", TestSigning.kpackDescriptor(version));
        return t;
    }

    static JsonNode releaseMeta(String module, String version) {
        ObjectNode m = TestSigning.JSON.createObjectNode();
        m.putObject("metadata").put("name", module).put("namespace", "kcp");
        m.putObject("spec").put("moduleName", module).putArray("channels").addObject().put("channel", "regular")
                .put("version", version);
        return m;
    }

    /** The cluster as lists: the installed Deployments and one 0.4.3 release per module on "regular". */
    final class InMemory extends ModuleGateway {

        @Override
        public List<ModuleDeployment> allModuleDeployments() {
            return List.copyOf(installed);
        }

        @Override
        public List<ModuleDeployment> deployments(String module) {
            return installed.stream().filter(d -> d.module().equals(module)).toList();
        }

        @Override
        public List<JsonNode> list(String kind, String namespace) {
            return installed.stream().map(d -> kind.equals(KymaModules.TEMPLATE) ? template(d.module(), "0.4.3")
                    : releaseMeta(d.module(), "0.4.3")).toList();
        }

        @Override
        public void patch(DeploymentPatch p) {
            if (failing.contains(p.ref().name())) {
                throw new TransientFailureException("apiserver unavailable", null);
            }
            if (conflicts > 0) {
                conflicts--;
                throw new StaleDeploymentException(p.ref() + " changed", null);
            }
            written.add(p);
        }
    }
}
