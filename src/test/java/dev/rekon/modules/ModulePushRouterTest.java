package dev.rekon.modules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.core.Reply;
import dev.rekon.modules.plan.ModulePlan;
import dev.rekon.modules.watch.ModulePushIndex;
import dev.rekon.testing.Failures;
import dev.rekon.testing.RecordingEvents;
import dev.rekon.webhooks.ImagePushed;
import dev.rekon.webhooks.Subscription;

/**
 * {@link ModulePushRouter} over the in-memory cluster, through the one loop: given the module's Deployments and a
 * push, these writes in this order, this reply, and the module version the Deployment runs afterwards.
 */
class ModulePushRouterTest {

    static final String PATCH = "patch Deployment kpack/kpack-controller";
    static final String DIGEST = "sha256:" + "4".repeat(64);

    record Case(String name, Consumer<InMemoryModules> given, boolean requireSignature, ImagePushed push,
            List<String> writes, String reply, String runs) {
        @Override
        public String toString() {
            return name;
        }
    }

    static ImagePushed push(String repository, String tag) {
        return new ImagePushed("registry.example", repository, tag, DIGEST, "event-1");
    }

    static Consumer<InMemoryModules> installed(String version) {
        return c -> c.deployment(ModuleFixtures.deployment(version, "regular"));
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a version tag one step up is a release: the container gets tag and digest",
                        installed("0.4.1"), false, push("kpack/controller", "0.4.3"), List.of(PATCH),
                        "applied/Upgraded", "0.4.3"),
                new Case("the same push again writes nothing", installed("0.4.1")
                        .andThen(c -> c.patch(new ModulePlan.DeploymentPatch(c.deployments.get("kpack-controller").ref(),
                                c.deployments.get("kpack-controller").resourceVersion(), java.util.Map.of("controller",
                                        "registry.example/kpack/controller:0.4.3@" + DIGEST), "0.4.3", null, null, null,
                                java.util.Map.of("controller", "registry.example/kpack/controller:0.4.3@" + DIGEST),
                                null))).andThen(c -> c.writes.clear()),
                        false, push("kpack/controller", "0.4.3"), List.of(), "unchanged/AlreadyAtVersion", "0.4.3"),
                new Case("an older tag is no release to go back to", installed("0.4.3"), false,
                        push("kpack/controller", "0.4.1"), List.of(), "rejected/DowngradeRefused", "0.4.3"),
                new Case("a tag that is no version names no release", installed("0.4.1"), false,
                        push("kpack/controller", "latest"), List.of(), "unchanged/NotAVersion", "0.4.1"),
                new Case("a repository no module runs", installed("0.4.1"), false, push("other/thing", "1.0.0"),
                        List.of(), "unchanged/NoModule", "0.4.1"),
                new Case("a push carries no signature, which the policy may require", installed("0.4.1"), true,
                        push("kpack/controller", "0.4.3"), List.of(), "rejected/SignatureMissing", "0.4.1"),
                new Case("a patch that loses a race is planned again from fresh reads",
                        installed("0.4.1").andThen(c -> c.failNextPatch(Failures.conflict("patch"))), false,
                        push("kpack/controller", "0.4.3"), List.of(PATCH + " (failed)", PATCH), "applied/Upgraded",
                        "0.4.3"),
                new Case("a patch the apiserver refuses is answered, not thrown",
                        installed("0.4.1").andThen(c -> c.failNextPatch(Failures.refused("patch", 403))), false,
                        push("kpack/controller", "0.4.3"), List.of(PATCH + " (failed)"), "rejected/ApiRefused", "0.4.1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesAndReply(Case c) {
        InMemoryModules cluster = new InMemoryModules();
        c.given().accept(cluster);
        Reply reply = router(cluster, c.requireSignature()).route(c.push());
        assertEquals(c.writes(), cluster.writes, "writes, in order; reply " + reply);
        assertEquals(c.reply(), reply.outcome().wire() + "/" + reply.reason(), reply.message());
        assertEquals(c.runs(), cluster.deployments.get("kpack-controller").version());
    }

    static ModulePushRouter router(InMemoryModules cluster, boolean requireSignature) {
        ModuleTrust trust = ModuleFixtures.trust(requireSignature);
        ModuleService service = new ModuleService();
        service.loop = ModuleFixtures.loop();
        service.modules = ModuleFixtures.reconciler(cluster, trust,
                Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC), new RecordingEvents());
        ModulePushRouter router = new ModulePushRouter();
        router.service = service;
        router.index = new ModulePushIndex() {
            @Override
            public List<Running> running(String repositoryKey) {
                return cluster.deployments.values().stream()
                        .filter(d -> d.containerImages().values().stream().anyMatch(i -> i.startsWith(repositoryKey + ":")))
                        .map(d -> new Running(d, java.util.Set.of(repositoryKey),
                                new Subscription.PullSecrets(d.ref().namespace(), "default", List.of()), false))
                        .toList();
            }
        };
        return router;
    }
}
