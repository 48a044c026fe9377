package dev.rekon.modules.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.ResyncScope;
import dev.rekon.testing.RecordingEvents;
import dev.rekon.testing.ServedKinds;

/**
 * The publish pass over the in-memory registry and cluster: every semantic-version tag under the configured
 * prefixes is published through the one loop, other tags left out; a converged pass reads only digests and writes
 * nothing, for 100 versions too; a rewritten version is counted as failed with nothing written; a report writes
 * nothing; a registry that will not list is a failure of the pass, not of the process; off or without Kyma's
 * kinds, the area is skipped.
 */
class PublishResyncTest {

    static final String PREFIX = "registry.example/modules";
    static final String REPO = PublicationPlannerTest.REPO;
    static final String DIGEST = "sha256:" + "a".repeat(64);

    final InMemoryPublication fake = new InMemoryPublication();
    final PublishSettings settings = new PublishSettings();
    final PublishResync resync = new PublishResync();
    PublishService service;

    @BeforeEach
    void setUp() {
        settings.repositories = Optional.of(List.of(PREFIX));
        settings.namespace = "kcp-system";
        settings.autoChannels = "fast";
        settings.maxBlobBytes = 1 << 20;
        PublishReconciler reconciler = new PublishReconciler();
        reconciler.components = fake;
        reconciler.gateway = fake;
        reconciler.settings = settings;
        reconciler.events = new RecordingEvents();
        reconciler.trust = new ModuleTrust() {
            @Override
            public ModuleUpdatePlanner.Policy policy() {
                return new ModuleUpdatePlanner.Policy(false, Optional.empty());
            }
        };
        service = new PublishService();
        service.settings = settings;
        service.reconciler = reconciler;
        service.loop = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("*", true)));
        resync.settings = settings;
        resync.loop = service.loop;
        resync.reconciler = reconciler;
        resync.components = fake;
        resync.kinds = ServedKinds.all();
        fake.push(REPO, "0.1.0", DIGEST);
        fake.push(REPO, "latest", DIGEST);
        fake.push(REPO, "0.2.0", DIGEST);
        fake.push(REPO, "0.1.1", DIGEST);
    }

    @Test
    void publishesEveryVersionTagThenAConvergedPassReadsDigestsAndWritesNothing() {
        AreaResult first = resync.resync(ResyncScope.all());
        assertEquals(3, first.checked(), first.toString());
        assertEquals(3, first.changed());
        assertEquals(Map.of("fast", "0.2.0"), fake.channels.get("kpack"), "never moved back to 0.1.1");
        assertEquals(Set.of("kpack-0.1.0", "kpack-0.2.0", "kpack-0.1.1"), fake.templates.keySet());
        fake.writes.clear();
        fake.reads.clear();

        AreaResult second = resync.resync(ResyncScope.all());
        assertEquals(3, second.unchanged(), second.toString());
        assertEquals(0, second.changed());
        assertEquals(List.of(), fake.writes);
        assertEquals(List.of("digest 0.1.0", "digest 0.2.0", "digest 0.1.1"), fake.reads, "no descriptor, no blob");
    }

    @Test
    void aConvergedPassOfAHundredVersionsWritesNothing() {
        for (int i = 0; i < 100; i++) {
            fake.push(REPO, "1.0." + i, DIGEST);
        }
        resync.resync(ResyncScope.all());
        fake.writes.clear();
        fake.reads.clear();
        AreaResult again = resync.resync(ResyncScope.all());
        assertEquals(103, again.unchanged(), again.toString());
        assertEquals(List.of(), fake.writes);
        assertEquals(103, fake.reads.size());
        assertEquals(0, fake.reads.stream().filter(r -> r.startsWith("read")).count());
    }

    @Test
    void aPushedVersionIsReadAtOnceAndAPushOfOnePublishedAlreadyWritesNothing() {
        assertEquals("applied", service.publish(REPO, "0.2.0").outcome().name().toLowerCase());
        assertEquals(List.of("read 0.2.0"), fake.reads, "read beside the template, not after it");
        fake.writes.clear();
        fake.reads.clear();

        var again = service.publish(REPO, "0.2.0");
        assertEquals("unchanged", again.outcome().name().toLowerCase(), again.toString());
        assertEquals(List.of(), fake.writes);
        assertEquals(List.of("read 0.2.0"), fake.reads);
        fake.push(REPO, "0.2.0", "sha256:" + "b".repeat(64));
        var rewritten = service.publish(REPO, "0.2.0");
        assertEquals("VersionRewritten", rewritten.reason(), rewritten.toString());
        assertEquals(List.of(), fake.writes);
    }

    @Test
    void aVersionPushedAgainWithOtherContentIsAFailureAndNothingIsWritten() {
        resync.resync(ResyncScope.all());
        fake.writes.clear();
        fake.push(REPO, "0.2.0", "sha256:" + "b".repeat(64));
        AreaResult result = resync.resync(ResyncScope.all());
        assertEquals(1, result.failed(), result.toString());
        assertEquals("VersionRewritten", result.objects().get(0).reason());
        assertEquals("kpack-0.2.0", result.objects().get(0).object().name());
        assertEquals(List.of(), fake.writes);
    }

    @Test
    void aReportCountsWhatWouldChangeAndWritesNothing() {
        AreaResult result = resync.resync(new ResyncScope(null, true));
        assertEquals(3, result.changed(), result.toString());
        assertEquals(List.of(), fake.writes);
        assertEquals(0, resync.resync(new ResyncScope("other-namespace", false)).checked(), "not its namespace");
        assertEquals(List.of(), fake.writes);
    }

    @Test
    void aRegistryThatWillNotListIsAFailureOfThePass() {
        fake.catalogRefusal = "cannot list the catalog of registry.example (RegistryUnauthorized)";
        AreaResult refused = resync.resync(ResyncScope.all());
        assertEquals(1, refused.failed(), refused.toString());
        assertEquals("ListingRefused", refused.objects().get(0).reason());
        fake.catalogRefusal = null;
        fake.tagsUnavailable = true;
        AreaResult down = resync.resync(ResyncScope.all());
        assertEquals("Unavailable", down.objects().get(0).reason(), down.toString());
        assertEquals(List.of(), fake.writes);
    }

    @Test
    void offOrWithoutKymaKindsTheAreaIsSkipped() {
        resync.kinds = ServedKinds.allBut(Set.of("modulereleasemetas.operator.kyma-project.io"));
        AreaResult noKinds = resync.resync(ResyncScope.all());
        assertEquals(0, noKinds.checked());
        assertEquals(true, noKinds.skipped().contains("modulereleasemetas"), noKinds.skipped());
        settings.repositories = Optional.empty();
        AreaResult off = resync.resync(ResyncScope.all());
        assertEquals(true, off.skipped().contains("publication is off"), off.skipped());
        assertEquals(List.of(), fake.writes);
        assertNull(fake.channels.get("kpack"));
    }
}
