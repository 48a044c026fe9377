package dev.rekon.resync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.rollouts.RolloutFunctions;
import dev.rekon.web.OutgoingEvent;

/**
 * A resync pass with a fan-out sink: each key becomes one reconcile CloudEvent of the area's per-key input, sent
 * and not worked here; a send that fails is a failed key; a pass that could send nothing fails (and is redelivered);
 * a report never fans out; a redelivered pass sends the same ids.
 */
class FanoutPassTest {

    record Done(Reply reply) implements Reconciler.Plan {
    }

    static final class Area implements Reconciler<String, String, Done>, FannedOut<String> {
        final AtomicInteger loads = new AtomicInteger();

        @Override
        public ObjectRef subject(String key) {
            return new ObjectRef("rekon.dev/v1alpha1", "Thing", "team", key);
        }

        @Override
        public Optional<String> load(String key, boolean fresh) {
            loads.incrementAndGet();
            return Optional.of(key);
        }

        @Override
        public Reply gone(String key) {
            return Reply.unchanged("Gone", key, List.of());
        }

        @Override
        public Done plan(String views) {
            return new Done(Reply.applied("Changed", views, List.of(subject(views))));
        }

        @Override
        public void apply(Done plan) {
        }

        @Override
        public OutgoingEvent reconcileEvent(String key) {
            return OutgoingEvent.of("dev.rekon.thing.reconcile", Map.of(), Map.of("namespace", "team", "name", key));
        }
    }

    /** The Broker as a list: what it accepted, and a refusal for the keys named {@code lost}. */
    static final class Sink implements FanoutPass.Sender {
        final List<OutgoingEvent> accepted = new ArrayList<>();
        final List<String> areas = new ArrayList<>();

        @Override
        public synchronized CompletableFuture<Void> send(String area, OutgoingEvent event) {
            if (event.data().get("name").startsWith("lost")) {
                return CompletableFuture.failedFuture(new IllegalStateException("HTTP 503 from the broker"));
            }
            accepted.add(event);
            areas.add(area);
            return CompletableFuture.completedFuture(null);
        }
    }

    static ReconcileLoop loop() {
        return ReconcileLoop.of(NamespaceGuard.of(NamespacePolicy.parse("team")), 2);
    }

    @Test
    void aFannedOutPassSendsOneReconcileEventPerKeyAndWorksNone() {
        Area area = new Area();
        Sink sink = new Sink();
        FanoutPass pass = new FanoutPass("ping-1", sink);
        AreaTally tally = new AreaTally("things");
        AreaPass.run(loop(), area, List.of("a", "b", "lost-c", "d"), pass.scope(ResyncScope.all(), "things"), tally);

        assertEquals(0, area.loads.get(), "no key is loaded, planned or written here");
        assertEquals(List.of("a", "b", "d"), sink.accepted.stream().map(e -> e.data().get("name")).toList());
        assertEquals(List.of("things", "things", "things"), sink.areas);
        OutgoingEvent a = sink.accepted.get(0);
        assertEquals("dev.rekon.thing.reconcile", a.type());
        assertEquals("rekon/resync", a.source());
        assertEquals("ping-1", a.extensions().get(FanoutPass.PASS_EXTENSION));
        AreaResult result = pass.counted(tally.result());
        assertEquals(3, result.emitted(), result.toString());
        assertEquals(1, result.failed(), "a send the sink refused is a failed key of the pass");
        assertEquals("NotSent", result.objects().get(0).reason());
        assertEquals("lost-c", result.objects().get(0).object().name());
        ResyncReply reply = ResyncReply.of("all", ResyncScope.all(), List.of(result));
        assertEquals("PartlyFailed", reply.reason());
        assertTrue(reply.message().contains("3 sent to the fan-out sink"), reply.message());
        pass.requireSomeSent();
    }

    @Test
    void aPassRedeliveredSendsTheSameIdsAndAnotherPassOthers() {
        Sink first = new Sink();
        AreaPass.run(loop(), new Area(), List.of("a", "b"), new FanoutPass("ping-1", first)
                .scope(ResyncScope.all(), "things"), new AreaTally("things"));
        Sink again = new Sink();
        AreaPass.run(loop(), new Area(), List.of("a", "b"), new FanoutPass("ping-1", again)
                .scope(ResyncScope.all(), "things"), new AreaTally("things"));
        Sink next = new Sink();
        AreaPass.run(loop(), new Area(), List.of("a", "b"), new FanoutPass("ping-2", next)
                .scope(ResyncScope.all(), "things"), new AreaTally("things"));
        List<String> ids = first.accepted.stream().map(OutgoingEvent::id).toList();
        assertEquals(ids, again.accepted.stream().map(OutgoingEvent::id).toList());
        assertEquals(2, ids.stream().distinct().count(), "one id per key");
        assertTrue(next.accepted.stream().map(OutgoingEvent::id).noneMatch(ids::contains), ids.toString());
    }

    @Test
    void aPassThatCouldSendNothingFailsForRedelivery() {
        FanoutPass pass = new FanoutPass("ping-1", new Sink());
        AreaTally tally = new AreaTally("things");
        AreaPass.run(loop(), new Area(), List.of("lost-a", "lost-b"), pass.scope(ResyncScope.all(), "things"), tally);
        assertEquals(2, pass.counted(tally.result()).failed());
        TransientFailureException e = assertThrows(TransientFailureException.class, pass::requireSomeSent);
        assertTrue(e.getMessage().contains("HTTP 503 from the broker"), e.getMessage());
    }

    @Test
    void aReportAndAnAreaWithoutAReconcileEventWorkTheirKeysHere() {
        Area area = new Area();
        Sink sink = new Sink();
        FanoutPass pass = new FanoutPass("ping-1", sink);
        AreaTally report = new AreaTally("things");
        AreaPass.run(loop(), area, List.of("a"), pass.scope(new ResyncScope(null, true), "things"), report);
        assertEquals(1, area.loads.get(), "a report plans here, writing nothing");
        assertEquals(1, report.result().changed());
        assertNull(pass.counted(report.result()).emitted(), "nothing emitted is no count at all");

        AreaPassTest.Area plain = new AreaPassTest.Area(1);
        AreaTally tally = new AreaTally("plain");
        AreaPass.run(loop(), plain, List.of("shop"), pass.scope(ResyncScope.all(), "plain"), tally);
        assertEquals(1, tally.result().unchanged(), "an area without a per-key event works its keys as before");
        assertTrue(sink.accepted.isEmpty());
        ResyncReply reply = ResyncReply.of("all", ResyncScope.all(), List.of(pass.counted(tally.result())));
        assertEquals(Outcome.UNCHANGED, reply.outcome());
        assertEquals("InSync", reply.reason());
    }

    @Test
    void anImageDeployKeyIsSentAsTheImageDeployEventTheRolloutFunctionsTakeInReferenceMode() {
        OutgoingEvent e = RolloutFunctions.reconcileEvent("rekon.dev", "shop", "web");
        ApiServerEvent parsed = ApiServerEvent.parse(e.type(), e.extensions(), new ObjectMapper().valueToTree(e.data()));
        assertEquals(ApiServerEvent.Verb.UPDATE, parsed.verb());
        assertTrue(parsed.reference());
        assertEquals("ImageDeploy", parsed.kind());
        assertEquals("ImageDeploy", e.extensions().get("kind"), "the functions route on the extension 'kind'");
        assertEquals("rekon.dev/v1alpha1", parsed.apiVersion());
        assertEquals("shop", parsed.namespace());
        assertEquals("web", parsed.name());
    }
}
