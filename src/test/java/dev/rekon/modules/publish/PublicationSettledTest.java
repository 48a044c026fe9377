package dev.rekon.modules.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.rekon.core.Outcome;
import dev.rekon.modules.publish.plan.PublicationPlanner;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.source.ComponentRead;

/**
 * Table of when publication needs no more than the tag's digest (what a converged resync reads), and of the plan
 * from such a read: already published, writing nothing.
 */
class PublicationSettledTest {

    static final String DIGEST = PublicationPlannerTest.DIGEST;
    static final String COMPONENT = PublicationPlannerTest.COMPONENT;

    static Optional<String> settled(String version, String templateDigest, String component, String... channels) {
        return PublicationPlanner.settled(PublicationPlannerTest.key(version), PublicationPlannerTest.FAST,
                templateDigest == null ? null : PublicationPlannerTest.template(version, templateDigest),
                component == null ? null : PublicationPlannerTest.meta(component, channels));
    }

    @Test
    void settledOnlyWhenNothingWouldBeWritten() {
        assertEquals(Optional.of(DIGEST), settled("0.4.1", DIGEST, COMPONENT, "fast", "0.4.1"));
        assertEquals(Optional.of(DIGEST), settled("0.4.1", DIGEST, COMPONENT, "fast", "0.5.0"), "channel newer");
        assertEquals(Optional.of(DIGEST), settled("0.4.1", DIGEST, COMPONENT, "fast", "main"), "set by hand");
        assertEquals(Optional.empty(), settled("0.4.1", DIGEST, COMPONENT, "fast", "0.4.0"), "the channel moves");
        assertEquals(Optional.empty(), settled("0.4.1", DIGEST, COMPONENT), "no channel yet");
        assertEquals(Optional.empty(), settled("0.4.1", null, COMPONENT, "fast", "0.4.1"), "no template");
        assertEquals(Optional.empty(), settled("0.4.1", DIGEST, null), "no release meta");
        assertEquals(Optional.empty(), settled("0.4.1", DIGEST, "example.com/other/kpack", "fast", "0.4.1"),
                "another component's release meta: the full read refuses");
        assertEquals(Optional.empty(), settled("latest", DIGEST, COMPONENT, "fast", "0.4.1"), "a refused key");
    }

    @Test
    void anUnchangedReadPlansAlreadyPublishedAndWritesNothing() {
        PublishPlan p = PublicationPlannerTest.plan(PublicationPlannerTest.key("0.4.1"), PublicationPlannerTest.FAST,
                new ComponentRead.Unchanged(DIGEST), PublicationPlannerTest.template("0.4.1", DIGEST),
                PublicationPlannerTest.meta(COMPONENT, "fast", "0.4.3"));
        assertEquals(Outcome.UNCHANGED, p.reply().outcome());
        assertEquals(PublicationPlanner.ALREADY, p.reply().reason());
        assertEquals(true, p.reply().message().contains("fast stays at 0.4.3"), p.reply().message());
        assertEquals(null, p.template());
        assertEquals(0, p.moves().size());
        assertThrows(IllegalArgumentException.class, () -> PublicationPlannerTest.plan(
                PublicationPlannerTest.key("0.4.1"), PublicationPlannerTest.FAST, new ComponentRead.Unchanged(DIGEST),
                PublicationPlannerTest.template("0.4.1", DIGEST), PublicationPlannerTest.meta(COMPONENT)),
                "an unchanged read from views that are not settled is a programming error");
    }
}
