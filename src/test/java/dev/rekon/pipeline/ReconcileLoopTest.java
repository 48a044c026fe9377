package dev.rekon.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.testing.Failures;

/** The one loop: guard before reads, one retry around load + plan + apply, refusals per object, report mode. */
class ReconcileLoopTest {

    record Done(Reply reply) implements Reconciler.Plan {
    }

    /** An area of one kind of object named by its name in namespace "team-a"; records what the loop asked. */
    static final class Area implements Reconciler<String, String, Done> {
        final List<String> calls = new ArrayList<>();
        final List<RuntimeException> writeFailures = new ArrayList<>();
        /** What apply does after recording itself (an apply that retries on its own, say). */
        Runnable duringApply = () -> { };
        boolean gone;

        @Override
        public String namespace(String key) {
            return "team-a";
        }

        @Override
        public ObjectRef subject(String key) {
            return new ObjectRef("v1", "ConfigMap", "team-a", key);
        }

        @Override
        public Optional<String> load(String key, boolean fresh) {
            calls.add("load " + key + (fresh ? " fresh" : ""));
            return gone ? Optional.empty() : Optional.of(key);
        }

        @Override
        public Reply gone(String key) {
            return Reply.unchanged("Gone", key + " is gone", List.of());
        }

        @Override
        public Done plan(String views) {
            return new Done(Reply.applied("Written", views + " written", List.of(subject(views))));
        }

        @Override
        public void apply(Done plan) {
            calls.add("apply");
            if (!writeFailures.isEmpty()) {
                throw writeFailures.remove(0);
            }
            duringApply.run();
        }

        @Override
        public Map<String, String> facts(String key) {
            return Map.of("module", key);
        }
    }

    private final ReconcileLoop loop = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("team-a")));

    @Test
    void aConflictIsPlannedAgainFromFreshReads() {
        Area area = new Area();
        area.writeFailures.add(Failures.conflict("write"));
        Reply reply = loop.reconcile(area, "a");
        assertEquals(Outcome.APPLIED, reply.outcome());
        assertEquals(List.of("load a", "apply", "load a fresh", "apply"), area.calls);
    }

    @Test
    void aRefusalIsRejectedNamingTheObjectWithTheAreasFacts() {
        Area area = new Area();
        area.writeFailures.add(Failures.refused("patching ConfigMap team-a/a", 422));
        Reply reply = loop.reconcile(area, "a");
        assertEquals(Outcome.REJECTED, reply.outcome());
        assertEquals(ApiRefusals.REASON, reply.reason());
        assertEquals(List.of(area.subject("a")), reply.objects());
        assertEquals("a", reply.details().get("module"));
        assertTrue(reply.message().contains("422"), reply.message());
    }

    @Test
    void anObjectOutsideTheAllowedNamespacesIsNeverRead() {
        Area area = new Area();
        ReconcileLoop elsewhere = ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("team-b")));
        Reply reply = elsewhere.reconcile(area, "a");
        assertEquals(NamespacePolicy.REASON, reply.reason());
        assertEquals(List.of(), area.calls);
        assertEquals(Optional.empty(), elsewhere.plan(area, "a"));
    }

    @Test
    void reportModeWritesNothing() {
        Area area = new Area();
        assertEquals(Outcome.APPLIED, loop.report(area, "a").outcome());
        assertEquals("a written", loop.plan(area, "a").orElseThrow().reply().message());
        assertEquals(List.of("load a", "load a"), area.calls);
    }

    @Test
    void aGoneObjectIsAnsweredByTheArea() {
        Area area = new Area();
        area.gone = true;
        assertEquals("Gone", loop.reconcile(area, "a").reason());
    }

    @Test
    void retriesAreNeverNested() {
        Area area = new Area();
        int[] inner = {0};
        area.duringApply = () -> ConflictRetry.run(f -> {
            inner[0]++;
            throw Failures.conflict("write");
        });
        assertThrows(TransientFailureException.class, () -> loop.reconcile(area, "a"));
        assertEquals(ConflictRetry.ATTEMPTS, inner[0], "the retry inside the apply runs once per attempt of the loop");
        List<String> attempts = new ArrayList<>();
        for (int n = 0; n < ConflictRetry.ATTEMPTS; n++) {
            attempts.add(n == 0 ? "load a" : "load a fresh");
            attempts.add("apply");
        }
        assertEquals(attempts, area.calls, "the loop plans the whole object again, from fresh reads");
    }

    @Test
    void manyObjectsAreOneReply() {
        Area area = new Area();
        Reply reply = loop.reconcileAll(area, List.of("a", "b"), Reply.unchanged("None", "", List.of()));
        assertEquals(2, reply.objects().size());
        assertEquals("None", loop.reconcileAll(area, List.of(), Reply.unchanged("None", "", List.of())).reason());
    }

    /** A plan that writes nothing now and asks to be planned again in a minute (a soak that has not ended). */
    record Waits(Reply reply) implements Reconciler.Plan {
        @Override
        public boolean writes() {
            return false;
        }

        @Override
        public Optional<java.time.Duration> rescheduleAfter() {
            return Optional.of(java.time.Duration.ofMinutes(1));
        }
    }

    static final class Soaking implements Reconciler<String, String, Waits> {
        @Override
        public String namespace(String key) {
            return "team-a";
        }

        @Override
        public ObjectRef subject(String key) {
            return new ObjectRef("rekon.dev/v1alpha1", "ImagePromotion", "team-a", key);
        }

        @Override
        public Optional<String> load(String key, boolean fresh) {
            return Optional.of(key);
        }

        @Override
        public Reply gone(String key) {
            return Reply.unchanged("Gone", key, List.of());
        }

        @Override
        public Waits plan(String views) {
            return new Waits(Reply.unchanged("Soaking", views + " soaks", List.of()));
        }

        @Override
        public void apply(Waits plan) {
        }
    }

    @Test
    void aPassWhosePlanWritesNothingKeepsTheRecheckItAsksForAndAReportDoesNot() {
        Soaking area = new Soaking();
        loop.pass(area, "hello", true);
        assertTrue(loop.queue().dueIn(area.subject("hello")).isPresent(),
                "after a restart the pass is what finds a soak; its end must still wake the key");
        loop.pass(area, "other", false);
        assertTrue(loop.queue().dueIn(area.subject("other")).isEmpty(), "a report-mode pass schedules nothing");
    }
}
