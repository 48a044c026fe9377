package dev.rekon.modules.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.rekon.modules.ModuleResync;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncScope;
import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The modules resync on the real apiserver: a release no event announced is applied, a converged module gets no
 * write, a Deployment changed by hand is reported (Warning Event, {@code GET /modules}) and left alone until a
 * newer release, and a suspended one is changed by neither events nor resyncs.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = ModuleKeysResource.class, restrictToAnnotatedClass = true)
class ModuleResyncEndToEndTest extends ModuleClusterFixtures {

    static final String HOTFIX = "registry.example/kpack/controller:0.4.3-hotfix";
    static final String PINNED = "@sha256:" + "1".repeat(64);

    @Inject
    ModuleResync resync;

    @Test
    void aReleaseNoEventAnnouncedIsPlannedThenAppliedAndAConvergedModuleGetsNoWrite() {
        String module = released("0.4.3");
        String installed = deployment(module).getMetadata().getResourceVersion();

        AreaResult planned = resync.resync(new ResyncScope(ns, true));
        assertEquals(1, planned.changed(), planned.toString());
        assertEquals("Upgraded", planned.objects().get(0).reason());
        assertEquals(installed, deployment(module).getMetadata().getResourceVersion(), "a report writes nothing");

        AreaResult first = resync.resync(scope());
        assertEquals(1, first.changed(), first.toString());
        Deployment d = deployment(module);
        assertEquals("0.4.3", d.getMetadata().getLabels().get("app.kubernetes.io/version"));
        assertEquals("registry.example/kpack/controller:0.4.3" + PINNED, image(d, "controller"));
        assertEquals("{\"controller\":\"registry.example/kpack/controller:0.4.3" + PINNED + "\"}",
                d.getMetadata().getAnnotations().get("rekon.dev/applied-images"));

        assertEquals(new AreaResult("modules", 1, 0, 1, 0, 0, List.of()), resync.resync(scope()));
        assertEquals(d.getMetadata().getResourceVersion(), deployment(module).getMetadata().getResourceVersion());
    }

    @Test
    void aManualChangeIsReportedOnceAndLeftAloneUntilANewerRelease() throws Exception {
        String module = released("0.4.3");
        resync.resync(scope());
        admin.apps().deployments().inNamespace(ns).withName(module).edit(d -> {
            d.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(HOTFIX);
            return d;
        });

        AreaResult drifted = resync.resync(scope());
        assertEquals(1, drifted.drifted(), drifted.toString());
        assertEquals("ManualChange", drifted.objects().get(0).reason());
        Deployment d = deployment(module);
        assertEquals(HOTFIX, image(d, "controller"));
        assertEquals("controller=" + HOTFIX, d.getMetadata().getAnnotations().get("rekon.dev/manual-change"));
        Await.until("a Warning Event on the Deployment", () -> warnings(module).size() == 1);

        AreaResult again = resync.resync(scope());
        assertEquals(1, again.drifted());
        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("unchanged"))
                .body("reason", equalTo("ManualChange"));
        Thread.sleep(1500); // past the Event recorder's one-second window: nothing more may arrive
        assertEquals(d.getMetadata().getResourceVersion(), deployment(module).getMetadata().getResourceVersion());
        assertEquals(1, warnings(module).size());
        given().get("/modules").then().statusCode(200)
                .body("find { it.module == '" + module + "' }.manualChanges[0]", equalTo("Deployment " + ns + "/"
                        + module + " was changed by hand: container controller runs " + HOTFIX + " but Rekon applied"
                        + " registry.example/kpack/controller:0.4.3" + PINNED + " (release 0.4.3); Rekon leaves it as"
                        + " it is until a release newer than 0.4.3"));

        template(module, "0.4.4", signed(module, "0.4.4"));
        releaseMeta(module, "0.4.4");
        assertEquals(1, resync.resync(scope()).changed());
        Deployment forward = deployment(module);
        assertEquals("registry.example/kpack/controller:0.4.4" + PINNED, image(forward, "controller"));
        assertNull(forward.getMetadata().getAnnotations().get("rekon.dev/manual-change"));
    }

    @Test
    void aSuspendedDeploymentIsChangedByNoEventAndNoResync() {
        String module = released("0.4.3");
        suspend(module, "true");

        assertEquals(new AreaResult("modules", 1, 0, 1, 0, 0, List.of()), resync.resync(scope()));
        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("unchanged"))
                .body("reason", equalTo("Suspended"));
        manual(signedManual(module, "0.4.3")).body("outcome", equalTo("unchanged")).body("reason", equalTo("Suspended"));
        post(ModulesEndToEndTest.ModuleFunctionsTypes.DISABLE, Map.of("module", module))
                .body("reason", equalTo("Suspended"));
        Deployment held = deployment(module);
        assertEquals("0.4.1", held.getMetadata().getLabels().get("app.kubernetes.io/version"));
        assertEquals(2, held.getSpec().getReplicas());

        suspend(module, null);
        assertEquals(1, resync.resync(scope()).changed());
        assertEquals("0.4.3", deployment(module).getMetadata().getLabels().get("app.kubernetes.io/version"));
    }

    /** A module installed at 0.4.1 whose regular channel offers {@code version}, announced by no event. */
    String released(String version) {
        String module = module();
        installed(module, "0.4.1");
        template(module, version, signed(module, version));
        releaseMeta(module, version);
        return module;
    }

    ResyncScope scope() {
        return new ResyncScope(ns, false);
    }

    void suspend(String module, String value) {
        admin.apps().deployments().inNamespace(ns).withName(module).edit(d -> {
            if (value == null) {
                d.getMetadata().getAnnotations().remove("rekon.dev/suspend");
            } else {
                d.getMetadata().getAnnotations().put("rekon.dev/suspend", value);
            }
            return d;
        });
    }

    List<Event> warnings(String module) {
        return admin.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "Warning".equals(e.getType()) && "ManualChange".equals(e.getReason())
                        && module.equals(e.getInvolvedObject().getName())).toList();
    }
}
