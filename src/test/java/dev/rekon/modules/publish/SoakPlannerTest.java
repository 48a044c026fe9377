package dev.rekon.modules.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.rekon.core.Outcome;
import dev.rekon.modules.publish.plan.ChannelPromotion;
import dev.rekon.modules.publish.plan.KymaFollower;
import dev.rekon.modules.publish.plan.PromotionPlan;
import dev.rekon.modules.publish.plan.PromotionRule;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.SoakPlanner;
import dev.rekon.modules.publish.plan.SoakViews;
import dev.rekon.modules.release.MaintenanceWindow;
import dev.rekon.modules.release.SignatureCheck;

/** The soak rules, decided from views at a given time: when a version moves, and what holds or blocks it. */
class SoakPlannerTest {

    static final Instant NOW = Instant.parse("2026-11-28T03:00:00Z"); // a Saturday
    static final List<PromotionRule> RULES = PromotionRule.parseAll("regular=fast+24h");
    static final SoakViews.Policy POLICY = new SoakViews.Policy(RULES, true, Optional.empty());
    static final SignatureCheck OK = SignatureCheck.verified("ok");
    static final String SOAK = SoakPlanner.SOAK_PREFIX + "regular";
    static final String STATUS = SoakPlanner.STATUS_PREFIX + "regular";

    static KymaFollower kyma(String name, String channel, String version, String state) {
        return new KymaFollower("kcp-system", name, channel, version, state, "Error".equals(state) ? "pods crash" : null);
    }

    static PublishedMeta meta(Map<String, String> annotations, String... channelVersion) {
        PublishedMeta m = PublicationPlannerTest.meta(PublicationPlannerTest.COMPONENT, channelVersion);
        return new PublishedMeta(m.view(), m.ocmComponentName(), annotations);
    }

    static List<SoakViews.Version> versions(SignatureCheck check, String... versions) {
        return java.util.Arrays.stream(versions).map(v -> new SoakViews.Version(PublicationPlannerTest.template(v,
                PublicationPlannerTest.DIGEST), check)).toList();
    }

    static PromotionPlan plan(SoakViews.Policy policy, PublishedMeta meta, List<KymaFollower> kymas, Instant now) {
        return SoakPlanner.plan(new SoakViews("kcp-system", "kpack", policy, meta, versions(OK, "0.4.1", "0.4.3",
                "2.0.0"), kymas, now));
    }

    static ChannelPromotion state(PromotionPlan p) {
        return p.report().promotions().get(0);
    }

    @Test
    void aVersionSoaksOnEveryKymaOfItsSourceChannelThenMoves() {
        List<KymaFollower> ready = List.of(kyma("a", "fast", "0.4.3", "Ready"), kyma("b", "fast", "0.4.3", "Ready"),
                kyma("c", "regular", "0.4.1", "Error"));
        PromotionPlan start = plan(POLICY, meta(Map.of(), "fast", "0.4.3", "regular", "0.4.1"), ready, NOW);
        assertEquals(ChannelPromotion.SOAKING, state(start).state());
        assertEquals("0.4.3@" + NOW, start.annotations().get(SOAK), "the soak starts now, recorded");
        assertTrue(start.moves().isEmpty());
        assertEquals(Outcome.APPLIED, start.reply().outcome(), "the record is a write");
        assertTrue(state(start).message().contains("moves to it at 2026-11-29T03:00:00Z"), state(start).message());
        assertEquals("Soaking", start.events().get(0).reason());

        Map<String, String> recorded = new HashMap<>(start.annotations());
        PromotionPlan later = plan(POLICY, meta(recorded, "fast", "0.4.3", "regular", "0.4.1"), ready,
                NOW.plus(Duration.ofHours(23)));
        assertNull(later.annotations(), "soaking on: nothing to write");
        assertTrue(later.events().isEmpty());
        assertEquals(Outcome.UNCHANGED, later.reply().outcome());
        assertEquals("Soaking", later.reply().reason());

        PromotionPlan due = plan(POLICY, meta(recorded, "fast", "0.4.3", "regular", "0.4.1"), ready,
                NOW.plus(Duration.ofHours(24)));
        assertEquals(1, due.moves().size());
        assertEquals("regular", due.moves().get(0).channel());
        assertEquals("0.4.1", due.moves().get(0).from());
        assertEquals("0.4.3", due.moves().get(0).to());
        assertTrue(due.moves().get(0).note().contains("after running Ready on fast for 24h since " + NOW),
                due.moves().get(0).note());
        assertNull(due.annotations().get(SOAK), "the soak record goes");
        assertTrue(due.annotations().get(STATUS).startsWith("Converged"), due.annotations().get(STATUS));
        assertEquals("ChannelPromoted", due.reply().reason());
        assertEquals("0.4.3", due.reply().details().get("toVersion"));
        assertEquals("ChannelPromoted", due.events().get(0).reason());

        PromotionPlan after = plan(POLICY, meta(due.annotations(), "fast", "0.4.3", "regular", "0.4.3"), ready,
                NOW.plus(Duration.ofHours(25)));
        assertFalse(after.writes(), "converged: no write");
        assertEquals("Converged", after.reply().reason());
    }

    @Test
    void whatBlocksOrHoldsAPromotionAndRestartsItsSoak() {
        Map<String, String> soaked = Map.of(SOAK, "0.4.3@" + NOW.minus(Duration.ofHours(30)));
        record Case(String name, PublishedMeta meta, List<KymaFollower> kymas, SoakViews.Policy policy,
                List<SoakViews.Version> versions, String state, String reason, String names, boolean keepsSoak) {
        }
        PublishedMeta m = meta(soaked, "fast", "0.4.3", "regular", "0.4.1");
        List<KymaFollower> ready = List.of(kyma("a", "fast", "0.4.3", "Ready"));
        List<SoakViews.Version> all = versions(OK, "0.4.1", "0.4.3", "2.0.0");
        SoakViews.Policy window = new SoakViews.Policy(RULES, true, Optional.of(MaintenanceWindow.parse("Sun 02:00-06:00")));
        List<Case> cases = List.of(
                new Case("a Kyma in Error", m, List.of(kyma("a", "fast", "0.4.3", "Ready"), kyma("b", "fast", "0.4.3",
                        "Error")), POLICY, all, ChannelPromotion.BLOCKED, "KymaUnhealthy", "Kyma kcp-system/b runs kpack"
                        + " 0.4.3 in state Error: pods crash", false),
                new Case("a Kyma in Warning", m, List.of(kyma("b", "fast", "0.4.1", "Warning")), POLICY, all,
                        ChannelPromotion.BLOCKED, "KymaUnhealthy", "Kyma kcp-system/b", false),
                new Case("a Kyma still installing", m, List.of(kyma("b", "fast", "0.4.3", "Processing")), POLICY, all,
                        ChannelPromotion.HELD, "KymaNotReady", "Kyma kcp-system/b runs kpack 0.4.3 (Processing)", false),
                new Case("a Kyma on the old version", m, List.of(kyma("b", "fast", "0.4.1", "Ready")), POLICY, all,
                        ChannelPromotion.HELD, "KymaNotReady", "runs kpack 0.4.1 (Ready)", false),
                new Case("a Kyma without status", m, List.of(kyma("b", "fast", null, null)), POLICY, all,
                        ChannelPromotion.HELD, "KymaNotReady", "runs kpack nothing yet (no status)", false),
                new Case("no Kyma on fast", m, List.of(kyma("b", "regular", "0.4.1", "Ready")), POLICY, all,
                        ChannelPromotion.HELD, "NoKymaOnSourceChannel", "on channel fast", false),
                new Case("outside the window", m, ready, window, all, ChannelPromotion.HELD, "OutsideMaintenanceWindow",
                        "opens next at 2026-11-29T02:00:00Z", true),
                new Case("a tampered template", m, ready, POLICY, versions(SignatureCheck.invalid("DigestMismatch", "changed"),
                        "0.4.3"), ChannelPromotion.BLOCKED, "DigestMismatch", "does not verify", false),
                new Case("a template not published", m, ready, POLICY, List.of(), ChannelPromotion.BLOCKED,
                        "VersionNotPublished", "kpack 0.4.3", false),
                new Case("two majors", meta(Map.of(), "fast", "2.0.0", "regular", "0.4.1"), List.of(kyma("a", "fast",
                        "2.0.0", "Ready")), POLICY, all, ChannelPromotion.BLOCKED, "MajorStepTooLarge", "0.4.1", false),
                new Case("nothing on fast", meta(soaked, "regular", "0.4.1"), ready, POLICY, all, ChannelPromotion.HELD,
                        "NoSourceVersion", "channel fast offers no version", false));
        for (Case c : cases) {
            PromotionPlan p = SoakPlanner.plan(new SoakViews("kcp-system", "kpack", c.policy(), c.meta(), c.versions(),
                    c.kymas(), NOW));
            ChannelPromotion s = state(p);
            assertEquals(c.state(), s.state(), c.name() + ": " + s.message());
            assertEquals(c.reason(), s.reason(), c.name());
            assertTrue(s.message().contains(c.names()), c.name() + ": " + s.message());
            assertTrue(p.moves().isEmpty(), c.name());
            assertEquals(c.keepsSoak(), p.annotations().containsKey(SOAK), c.name() + ": " + p.annotations());
            assertEquals(s.annotation(), p.annotations().get(STATUS), c.name());
            assertEquals(ChannelPromotion.BLOCKED.equals(c.state()), p.events().get(0).warning(), c.name());
        }
        PromotionPlan open = SoakPlanner.plan(new SoakViews("kcp-system", "kpack", window, m, all, ready,
                Instant.parse("2026-11-29T02:30:00Z")));
        assertEquals(1, open.moves().size(), "inside the window it moves");
    }

    @Test
    void aSoakOfAnotherVersionStartsAgainAndRulesRemovedTakeTheirRecordsAlong() {
        Map<String, String> old = Map.of(SOAK, "0.4.2@" + NOW.minus(Duration.ofDays(3)));
        PromotionPlan p = plan(POLICY, meta(old, "fast", "0.4.3", "regular", "0.4.1"),
                List.of(kyma("a", "fast", "0.4.3", "Ready")), NOW);
        assertEquals("0.4.3@" + NOW, p.annotations().get(SOAK));
        assertTrue(p.moves().isEmpty());

        PromotionPlan none = plan(new SoakViews.Policy(List.of(), true, Optional.empty()), meta(old, "fast", "0.4.3"),
                List.of(), NOW);
        assertEquals(Map.of(), none.annotations(), "the records of a rule removed go");
        assertEquals("NoPromotionRules", none.reply().reason());
        assertEquals(Outcome.APPLIED, none.reply().outcome(), "removing them is a write");
        assertEquals(Outcome.UNCHANGED, plan(new SoakViews.Policy(List.of(), true, Optional.empty()),
                meta(Map.of(), "fast", "0.4.3"), List.of(), NOW).reply().outcome());
    }

    @Test
    void theReportListsVersionsChannelsSignaturesAndKymas() {
        PromotionPlan p = plan(POLICY, meta(Map.of(), "fast", "0.4.3", "regular", "0.4.1"),
                List.of(kyma("a", "fast", "0.4.3", "Ready"), kyma("c", "regular", "0.4.1", "Ready")), NOW);
        assertEquals(List.of("0.4.1", "0.4.3", "2.0.0"), p.report().versions().stream().map(v -> v.version()).toList());
        var v043 = p.report().versions().get(1);
        assertEquals("kcp-system/kpack-0.4.3", v043.template());
        assertEquals("SignatureVerified", v043.signature());
        assertEquals(List.of("fast"), v043.channels());
        assertEquals(List.of("kcp-system/a"), v043.kymas());
        assertEquals(Map.of("fast", "0.4.3", "regular", "0.4.1"), p.report().channels());
    }

    @Test
    void rulesParseOrSayTheirForm() {
        assertEquals(List.of(new PromotionRule("regular", "fast", Duration.ofHours(24)),
                new PromotionRule("stable", "regular", Duration.ofDays(7))),
                PromotionRule.parseAll(" regular=fast+24h, stable=regular+7d "));
        assertEquals(List.of(), PromotionRule.parseAll("-"));
        assertEquals("regular=fast+90m", PromotionRule.parse("regular=fast+90m").toString());
        for (String bad : List.of("regular=fast", "regular=fast+24", "regular=regular+1h", "Regular=fast+1h",
                "regular=fast+1h,regular=experimental+1h")) {
            assertThrows(IllegalArgumentException.class, () -> PromotionRule.parseAll(bad), bad);
        }
    }
}
