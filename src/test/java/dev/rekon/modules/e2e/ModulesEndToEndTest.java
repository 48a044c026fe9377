package dev.rekon.modules.e2e;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.watch.ModulePushIndex;
import dev.rekon.testing.ApiCallSeries;
import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** The README walkthrough and the concurrency guarantee, on the real apiserver with Kyma's real CRDs. */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = ModuleKeysResource.class, restrictToAnnotatedClass = true)
class ModulesEndToEndTest extends ModuleClusterFixtures {

    @Inject
    ModulePushIndex index;

    @Inject
    MeterRegistry meters;

    @Test
    void walkthroughUpgradesThenRefusesTwoMajors() {
        String module = module();
        installed(module, "0.4.1");
        template(module, "0.4.3", signed(module, "0.4.3"));
        releaseMeta(module, "0.4.3");

        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("applied"))
                .body("reason", equalTo("Upgraded")).body("module", equalTo(module))
                .body("fromVersion", equalTo("0.4.1")).body("toVersion", equalTo("0.4.3"));
        Deployment d = deployment(module);
        assertEquals("0.4.3", d.getMetadata().getLabels().get("app.kubernetes.io/version"));
        assertEquals("registry.example/kpack/controller:0.4.3@sha256:" + "1".repeat(64), image(d, "controller"));
        assertEquals("proxy:1", image(d, "sidecar"));

        String rv = d.getMetadata().getResourceVersion();
        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("unchanged"))
                .body("reason", equalTo("AlreadyAtVersion"));
        assertEquals(rv, deployment(module).getMetadata().getResourceVersion());

        template(module, "2.0.0", signed(module, "2.0.0"));
        releaseMeta(module, "2.0.0");
        apiServerEvent("ModuleTemplate", module + "-2.0.0").body("outcome", equalTo("rejected"))
                .body("reason", equalTo("MajorStepTooLarge")).body("fromVersion", equalTo("0.4.3"))
                .body("toVersion", equalTo("2.0.0"));
        assertEquals(rv, deployment(module).getMetadata().getResourceVersion());
    }

    /**
     * Module events share the one Deployment watch (indexed by module) instead of listing the module's Deployments,
     * and what Rekon wrote counts before the watch shows it: a second event right after an upgrade is unchanged.
     */
    @Test
    void eventsFindTheModulesDeploymentsInTheWatchWithoutListing() throws InterruptedException {
        String module = module();
        installed(module, "0.4.1");
        template(module, "0.4.3", signed(module, "0.4.3"));
        releaseMeta(module, "0.4.3");
        long deadline = System.currentTimeMillis() + 30_000;
        while (!index.swapped(module).map(ds -> ds.size() == 1).orElse(false)) {
            assertTrue(System.currentTimeMillis() < deadline, "the Deployment watch never showed " + module);
            Thread.sleep(50);
        }
        double reads = deploymentReads();

        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("applied"))
                .body("toVersion", equalTo("0.4.3"));
        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("unchanged"))
                .body("reason", equalTo("AlreadyAtVersion"));

        assertEquals(reads, deploymentReads(), "Rekon read Deployments from the apiserver for a module event");
        assertEquals("0.4.3", deployment(module).getMetadata().getLabels().get("app.kubernetes.io/version"));
    }

    /** Rekon's own GETs (lists included) of Deployments so far. */
    private double deploymentReads() {
        return meters.find("rekon.api.calls").tag("method", "GET").tag("resource", "apps/deployments").timers()
                .stream().mapToDouble(t -> t.count()).sum();
    }

    @Test
    void refusesTamperedAndUnsignedReleases() {
        String module = module();
        installed(module, "0.4.1");
        ObjectNode tampered = signed(module, "0.4.3");
        ((ObjectNode) tampered.at("/component/resources/0/digest")).put("value", "9".repeat(64));
        template(module, "0.4.3", tampered);
        releaseMeta(module, "0.4.3");
        apiServerEvent("ModuleReleaseMeta", module).body("outcome", equalTo("rejected"))
                .body("reason", equalTo("DigestMismatch"));
        manual(Map.of("module", module, "version", "0.4.3", "images", Map.of("controller", "c:0.4.3")))
                .body("outcome", equalTo("rejected")).body("reason", equalTo("SignatureMissing"));
        assertEquals("0.4.1", deployment(module).getMetadata().getLabels().get("app.kubernetes.io/version"));
    }

    @Test
    void parallelReleasesEndAtTheNewestVersion() throws Exception {
        String module = module();
        installed(module, "0.4.1");
        List<Callable<String>> posts = new ArrayList<>();
        for (String v : List.of("0.4.2", "0.5.0", "0.4.3", "0.5.1", "0.4.9", "0.5.1")) {
            posts.add(() -> manual(signedManual(module, v)).extract().path("outcome"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(posts.size());
        try {
            List<String> outcomes = new ArrayList<>();
            for (Future<String> f : pool.invokeAll(posts)) {
                outcomes.add(f.get());
            }
            assertTrue(outcomes.contains("applied"), outcomes.toString());
        } finally {
            pool.shutdown();
        }
        Deployment d = deployment(module);
        assertEquals("0.5.1", d.getMetadata().getLabels().get("app.kubernetes.io/version"));
        assertEquals("registry.example/kpack/controller:0.5.1", image(d, "controller"));
    }

    /**
     * {@code GET /modules} is a view of the status page's module rows, read from the watches: it costs no API call.
     * Each window that saw one is named by its calls; another key's work in the background can fill one window,
     * not all three.
     */
    @Test
    void theListingCostsNoApiCall() throws InterruptedException {
        String module = module();
        installed(module, "0.4.1");
        releaseMeta(module, "0.4.3");
        Await.until("the listing shows the module", () -> given().get("/modules").then().statusCode(200).extract()
                .jsonPath().getList("module").contains(module));
        List<String> windows = new ArrayList<>();
        for (int attempt = 0; attempt < 3; attempt++) {
            Thread.sleep(1000);
            Map<String, Double> before = ApiCallSeries.now();
            for (int i = 0; i < 5; i++) {
                given().get("/modules").then().statusCode(200);
            }
            Map<String, Double> grown = ApiCallSeries.grown(before, ApiCallSeries.now());
            if (grown.isEmpty()) {
                return;
            }
            windows.add(grown.toString());
        }
        org.junit.jupiter.api.Assertions.fail("API calls made while answering 5 GET /modules, in each of 3 windows: "
                + windows);
    }

    @Test
    void disablesEnablesAndLists() {
        String module = module();
        installed(module, "0.4.1");
        releaseMeta(module, "0.4.3");
        post(ModuleFunctionsTypes.DISABLE, Map.of("module", module)).body("reason", equalTo("Disabled"));
        assertEquals(0, deployment(module).getSpec().getReplicas());
        post(ModuleFunctionsTypes.DISABLE, Map.of("module", module)).body("reason", equalTo("AlreadyDisabled"));
        given().get("/modules").then().statusCode(200)
                .body("find { it.module == '" + module + "' }.enabled", equalTo(false))
                .body("find { it.module == '" + module + "' }.newestOnChannel", equalTo("0.4.3"))
                .body("module", hasItem(module));
        post(ModuleFunctionsTypes.ENABLE, Map.of("module", module)).body("reason", equalTo("Enabled"));
        Deployment d = deployment(module);
        assertEquals(2, d.getSpec().getReplicas());
        assertEquals(null, d.getMetadata().getAnnotations() == null ? null
                : d.getMetadata().getAnnotations().get("rekon.dev/replicas-before-disable"));
    }

    /** The enable/disable event types, named here as the README documents them. */
    static final class ModuleFunctionsTypes {
        static final String ENABLE = "dev.rekon.modules.wake";
        static final String DISABLE = "dev.rekon.modules.hibernate";
    }
}
