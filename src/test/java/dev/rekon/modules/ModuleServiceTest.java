package dev.rekon.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.ModuleInput.Disable;
import dev.rekon.modules.ModuleInput.Enable;
import dev.rekon.modules.ModuleInput.Release;
import dev.rekon.modules.ModuleInput.ReleaseMetaChanged;
import dev.rekon.modules.ModuleInput.TemplateChanged;
import dev.rekon.modules.ModuleInput.Withdrawn;
import dev.rekon.modules.apply.KubeModuleDeployments;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.pipeline.ConflictRetry;
import dev.rekon.testing.Failures;
import dev.rekon.testing.RecordingEvents;

/**
 * {@link ModuleService}'s orchestration over an in-memory gateway: given the module's Deployments, Kyma's objects
 * (the README walkthrough's files) and an event, these patches in this order and this reply.
 */
class ModuleServiceTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final String PATCH_CONTROLLER = "patch Deployment kpack/kpack-controller";

    record Case(String name, Consumer<InMemoryModules> given, ModuleInput event, List<String> writes, String outcome,
            String reason, Map<String, String> details) {
        @Override
        public String toString() {
            return name;
        }
    }

    static ModuleService service(InMemoryModules cluster) {
        return service(cluster, new RecordingEvents());
    }

    static ModuleService service(InMemoryModules cluster, RecordingEvents events) {
        ModuleTrust trust = ModuleFixtures.trust(false);
        ModuleReleases releases = new ModuleReleases();
        releases.gateway = cluster;
        releases.trust = trust;
        ModuleService service = new ModuleService();
        service.releases = releases;
        service.loop = ModuleFixtures.loop();
        service.modules = ModuleFixtures.reconciler(cluster, trust,
                Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC), events);
        return service;
    }

    static Consumer<InMemoryModules> installed(String version) {
        return c -> c.deployment(ModuleFixtures.deployment(version, "regular"));
    }

    /** The walkthrough's kpack 0.4.1 Deployment, as the gateway views it. */
    static final Consumer<InMemoryModules> WALKTHROUGH = c -> {
        for (JsonNode doc : example("01-kpack-installed-0.4.1.yaml")) {
            if ("Deployment".equals(doc.path("kind").asText())) {
                c.deployment(KubeModuleDeployments.view(YAML.convertValue(doc,
                        io.fabric8.kubernetes.api.model.apps.Deployment.class)));
            }
        }
    };

    /** The walkthrough's Kyma objects of these files. */
    static Consumer<InMemoryModules> kyma(String... files) {
        return c -> {
            for (String f : files) {
                example(f).stream().filter(d -> d.path("apiVersion").asText().startsWith("operator.kyma-project.io/"))
                        .forEach(c.kymaObjects::add);
            }
        };
    }

    /** Every document of an example file. */
    static List<JsonNode> example(String file) {
        try (var docs = YAML.readValues(YAML.createParser(Path.of("knative/examples/modules", file).toFile()),
                JsonNode.class)) {
            return docs.readAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Release release(String version) {
        return new Release(ModuleFixtures.release(version, "regular"));
    }

    static Map<String, String> moved(String from, String to) {
        return Map.of("module", "kpack", "fromVersion", from, "toVersion", to);
    }

    static Stream<Case> cases() {
        Consumer<InMemoryModules> metaAndTemplate = kyma("modulereleasemeta-kpack-regular-0.4.3.yaml",
                "moduletemplate-kpack-0.4.3.yaml");
        return Stream.of(
                new Case("a release one minor step up patches the module", installed("0.4.1"), release("0.4.3"),
                        List.of(PATCH_CONTROLLER), "applied", "Upgraded", moved("0.4.1", "0.4.3")),
                new Case("the running release again writes nothing",
                        c -> c.deployment(new ModuleDeployment(ModuleFixtures.deployment("0.4.3", "regular").ref(), "7",
                                "kpack", "0.4.3", "regular", ModuleFixtures.release("0.4.3", "regular").images(), 2, null)),
                        release("0.4.3"), List.of(), "unchanged", "AlreadyAtVersion", moved("0.4.3", "0.4.3")),
                new Case("two major steps are refused", installed("0.4.3"), release("2.0.0"),
                        List.of(), "rejected", "MajorStepTooLarge", moved("0.4.3", "2.0.0")),
                new Case("a patch that loses a race is planned again and written",
                        installed("0.4.1").andThen(c -> c.failNextPatch(Failures.conflict("patch"))), release("0.4.3"),
                        List.of(PATCH_CONTROLLER + " (failed)", PATCH_CONTROLLER), "applied", "Upgraded",
                        moved("0.4.1", "0.4.3")),
                new Case("a patch the apiserver refuses is rejected",
                        installed("0.4.1").andThen(c -> c.failNextPatch(Failures.refused("patch", 403))), release("0.4.3"),
                        List.of(PATCH_CONTROLLER + " (failed)"), "rejected", "ApiRefused",
                        Map.of("module", "kpack", "toVersion", "0.4.3")),
                new Case("a module nobody installed", c -> { }, release("0.4.3"),
                        List.of(), "unchanged", "ModuleNotInstalled", Map.of("module", "kpack", "toVersion", "0.4.3")),
                new Case("a ReleaseMeta offering a described version applies it",
                        WALKTHROUGH.andThen(metaAndTemplate),
                        new ReleaseMetaChanged("kcp-system", "kpack", null), List.of(PATCH_CONTROLLER), "applied",
                        "Upgraded", moved("0.4.1", "0.4.3")),
                new Case("a ReleaseMeta offering a version no template describes waits for it",
                        installed("0.4.1").andThen(kyma("modulereleasemeta-kpack-regular-0.4.3.yaml")),
                        new ReleaseMetaChanged("kcp-system", "kpack", null), List.of(), "unchanged", "TemplateNotFound",
                        Map.of("module", "kpack", "toVersion", "0.4.3")),
                new Case("a ModuleTemplate released on the followed channel applies",
                        WALKTHROUGH.andThen(metaAndTemplate),
                        new TemplateChanged("kcp-system", "kpack-0.4.3", null), List.of(PATCH_CONTROLLER), "applied",
                        "Upgraded", moved("0.4.1", "0.4.3")),
                new Case("a deleted ReleaseMeta leaves the module as it runs", installed("0.4.1"),
                        new Withdrawn("ModuleReleaseMeta", "kcp-system", "kpack"), List.of(), "unchanged",
                        "ReleaseWithdrawn", Map.of()),
                new Case("disable scales to zero and remembers the replicas", installed("0.4.1"), new Disable("kpack"),
                        List.of(PATCH_CONTROLLER), "applied", "Disabled", Map.of("module", "kpack", "fromVersion", "0.4.1")),
                new Case("enable of an enabled module writes nothing", installed("0.4.1"), new Enable("kpack"),
                        List.of(), "unchanged", "AlreadyEnabled", Map.of("module", "kpack", "fromVersion", "0.4.1")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesAndReply(Case c) {
        InMemoryModules cluster = new InMemoryModules();
        c.given().accept(cluster);
        Reply reply = service(cluster).handle(c.event());
        assertEquals(c.writes(), cluster.writes, "writes, in order; reply " + reply);
        assertEquals(c.outcome() + "/" + c.reason(), reply.outcome().wire() + "/" + reply.reason(), reply.message());
        assertEquals(c.details(), reply.details());
    }

    @Test
    void ofTwoChannelsOneAppliedAndOneRefusedTheReplySaysApplied() {
        InMemoryModules cluster = new InMemoryModules();
        cluster.deployment(ModuleFixtures.deployment("kpack-controller", "0.4.1", "regular", 1, null));
        cluster.deployment(ModuleFixtures.deployment("kpack-fast", "1.0.0", "fast", 1, null));
        ModuleService service = service(cluster);
        Reply combined = dev.rekon.pipeline.Replies.combine(List.of(
                service.handle(new Release(ModuleFixtures.release("0.4.3", "regular"))),
                service.handle(new Release(ModuleFixtures.release("3.0.0", "fast")))));
        assertEquals("applied/Upgraded", combined.outcome().wire() + "/" + combined.reason());
    }

    @Test
    void aManualChangeReportThatLosesARaceIsPlannedAgainNotSwallowed() {
        InMemoryModules cluster = new InMemoryModules();
        ModuleDeployment seen = ModuleFixtures.deployment("0.4.3", "regular");
        cluster.deployment(new ModuleDeployment(seen.ref(), "7", "kpack", "0.4.3", "regular",
                Map.of("controller", ModuleFixtures.REGISTRY + "controller:by-hand"), 2, null,
                Map.of("controller", ModuleFixtures.REGISTRY + "controller:0.4.3"), false, null));
        cluster.failNextPatch(Failures.conflict("patch"));
        RecordingEvents events = new RecordingEvents();
        Reply reply = service(cluster, events).handle(release("0.4.3"));
        assertEquals(List.of(PATCH_CONTROLLER + " (failed)", PATCH_CONTROLLER), cluster.writes,
                "the report's lost race is planned again from a fresh read; reply " + reply);
        assertEquals(List.of("Warning ManualChange Deployment kpack/kpack-controller"), events.recorded);
        assertEquals("controller=" + ModuleFixtures.REGISTRY + "controller:by-hand",
                cluster.deployments.get("kpack-controller").reportedChange(), "the report is recorded");
    }

    @Test
    void conflictsBeyondTheBudgetAreTransient() {
        InMemoryModules cluster = new InMemoryModules();
        installed("0.4.1").accept(cluster);
        for (int i = 0; i < ConflictRetry.ATTEMPTS; i++) {
            cluster.failNextPatch(Failures.conflict("patch"));
        }
        assertThrows(TransientFailureException.class, () -> service(cluster).handle(release("0.4.3")));
        assertEquals(ConflictRetry.ATTEMPTS, cluster.writes.size());
    }
}
