package dev.rekon.modules.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.modules.publish.plan.SoakPlanner;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.testing.MovableClock;
import dev.rekon.testing.RecordingEvents;

/**
 * Promotions through the service and the one loop, on in-memory objects and a clock the test moves: a Kyma's
 * change starts the soak, the resync pass moves the channel once it has run its time, a failing Kyma blocks the
 * next one (said on the release meta and in a Warning), report mode writes nothing, and a promotion by hand waits
 * for the maintenance window.
 */
class PromotionServiceTest {

    static final Instant START = Instant.parse("2026-11-28T03:00:00Z");

    final InMemoryPublication cluster = new InMemoryPublication();
    final MovableClock clock = new MovableClock(START);
    final RecordingEvents events = new RecordingEvents();

    PublishService service(String window) {
        PublishSettings settings = new PublishSettings();
        settings.repositories = Optional.of(List.of("registry.example/modules"));
        settings.namespace = InMemoryPublication.NS;
        settings.autoChannels = "fast";
        settings.promotions = Optional.of("regular=fast+24h");
        settings.maintenanceWindow = Optional.ofNullable(window);
        settings.load();
        TemplateSignatures signatures = new TemplateSignatures();
        signatures.trust = new ModuleTrust() {
            @Override
            public ModuleUpdatePlanner.Policy policy() {
                return new ModuleUpdatePlanner.Policy(false, Optional.empty());
            }

            @Override
            public SignatureVerifier verifier() {
                return new SignatureVerifier(List.of());
            }
        };
        SoakReconciler soaks = new SoakReconciler();
        soaks.gateway = cluster;
        soaks.settings = settings;
        soaks.signatures = signatures;
        soaks.clock = clock;
        soaks.events = events;
        PromoteReconciler promote = new PromoteReconciler();
        promote.gateway = cluster;
        promote.settings = settings;
        promote.signatures = signatures;
        promote.clock = clock;
        promote.events = events;
        PublishService s = new PublishService();
        s.settings = settings;
        s.soaks = soaks;
        s.promotions = promote;
        s.gateway = cluster;
        s.loop = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("*", true)));
        return s;
    }

    PromotionServiceTest() {
        cluster.components.put("kpack", PublicationPlannerTest.COMPONENT);
        cluster.channels("kpack").put("fast", "0.4.3");
        cluster.channels("kpack").put("regular", "0.4.1");
        for (String v : List.of("0.4.1", "0.4.3", "0.4.4")) {
            cluster.template(PublicationPlannerTest.template(v, PublicationPlannerTest.DIGEST));
        }
        cluster.kyma("edge", "fast", "0.4.3", "Ready");
        cluster.kyma("prod", "regular", "0.4.1", "Ready");
    }

    @Test
    void aKymaChangeStartsTheSoakAndTheResyncMovesTheChannelOnceItRanItsTime() {
        PublishService s = service(null);
        assertEquals(Optional.empty(), s.kymaChanged("elsewhere", "edge"), "Kymas elsewhere follow no publication");
        Reply started = s.kymaChanged(InMemoryPublication.NS, "edge").orElseThrow();
        assertEquals(Outcome.APPLIED, started.outcome(), started.message());
        assertEquals("Soaking", started.reason());
        assertEquals("0.4.3@" + START, cluster.annotations("kpack").get(SoakPlanner.SOAK_PREFIX + "regular"));

        clock.set(START.plus(Duration.ofHours(12)));
        int writes = cluster.writes.size();
        assertEquals(Outcome.UNCHANGED, s.promotions("kpack", false).outcome());
        assertEquals(writes, cluster.writes.size(), "soaking on writes nothing");

        clock.set(START.plus(Duration.ofHours(24)));
        assertEquals("ChannelPromoted", s.promotions("kpack", true).reason(), "report mode says what it would do");
        assertEquals("0.4.1", cluster.channels("kpack").get("regular"), "and writes nothing");
        Reply moved = s.promotions("kpack", false);
        assertEquals("ChannelPromoted", moved.reason(), moved.message());
        assertEquals("0.4.3", cluster.channels("kpack").get("regular"));
        assertTrue(events.recorded.contains("Normal ChannelPromoted " + new dev.rekon.modules.publish.plan.SoakKey(
                InMemoryPublication.NS, "kpack").releaseMetaRef()), events.recorded.toString());
        assertEquals(Outcome.UNCHANGED, s.promotions("kpack", false).outcome(), "converged");
    }

    @Test
    void aFailingKymaOnTheSourceChannelBlocksAndSaysWhich() {
        PublishService s = service(null);
        cluster.channels("kpack").put("fast", "0.4.4");
        cluster.kyma("edge", "fast", "0.4.4", "Error");
        Reply blocked = s.promotions("kpack", false);
        assertEquals("KymaUnhealthy", blocked.reason());
        String status = cluster.annotations("kpack").get(SoakPlanner.STATUS_PREFIX + "regular");
        assertTrue(status.startsWith("Blocked (KymaUnhealthy): Kyma kcp-system/edge runs kpack 0.4.4 in state Error"),
                status);
        assertTrue(events.recorded.stream().anyMatch(e -> e.startsWith("Warning KymaUnhealthy")), events.recorded.toString());
        var report = s.promotionReport("kpack").orElseThrow().report();
        assertEquals("KymaUnhealthy", report.promotions().get(0).reason());
        assertEquals(List.of("kcp-system/edge"), report.versions().get(2).kymas());

        clock.set(START.plus(Duration.ofDays(3)));
        assertEquals("0.4.1", cluster.channels("kpack").get("regular"), "however long it fails");
        s.promotions("kpack", false);
        assertEquals("0.4.1", cluster.channels("kpack").get("regular"));
    }

    @Test
    void aPromotionByHandWaitsForTheMaintenanceWindow() {
        PublishService s = service("Sun 02:00-06:00");
        Reply refused = s.promote("kpack", "regular", "0.4.3");
        assertEquals(Outcome.REJECTED, refused.outcome());
        assertEquals("OutsideMaintenanceWindow", refused.reason());
        assertEquals("0.4.1", cluster.channels("kpack").get("regular"));
        clock.set(Instant.parse("2026-11-29T02:00:00Z"));
        assertEquals("ChannelPromoted", s.promote("kpack", "regular", "0.4.3").reason());
        assertEquals("0.4.3", cluster.channels("kpack").get("regular"));
    }
}
