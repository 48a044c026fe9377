package dev.rekon.resync;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.web.OutgoingEvent;

/**
 * One resync pass fanned out: each key of an area that has a reconcile event ({@link FannedOut}) is sent as that
 * event, to be worked by whichever replica the Broker hands it to, instead of here. Decides the event's id, the
 * same for the same key of the same pass (the pass's own event id), so a redelivered pass sends what it sent
 * before; counts what each area sent, and fails a pass that could send nothing ({@link #requireSomeSent}), so
 * that Knative redelivers it. A send that fails is a failed key: the next pass sends it again.
 */
public final class FanoutPass {

    /** The extension naming the pass an event came from. */
    public static final String PASS_EXTENSION = "rekonpass";
    static final String SOURCE = "rekon/resync";
    static final String NOT_SENT = "NotSent";

    /** The edge that sends one event of an area's pass; the future fails, naming why, when it was not taken. */
    @FunctionalInterface
    public interface Sender {
        CompletableFuture<Void> send(String area, OutgoingEvent event);
    }

    private final String passId;
    private final Sender sender;
    private final Map<String, AtomicInteger> sent = new ConcurrentHashMap<>();
    private final AtomicInteger notSent = new AtomicInteger();
    private volatile String lastFailure;

    public FanoutPass(String passId, Sender sender) {
        this.passId = passId;
        this.sender = sender;
    }

    /** The scope an area's part of the pass runs with: fanned out, unless it is a report (which writes nothing). */
    public ResyncScope scope(ResyncScope within, String area) {
        return within.report() ? within : within.fannedOut(new ForArea(area));
    }

    /** The area's result with what it sent; unchanged when it sent nothing. */
    public AreaResult counted(AreaResult result) {
        AtomicInteger n = sent.get(result.area());
        return n == null || n.get() == 0 ? result : result.withEmitted(n.get());
    }

    /** Throws when every event of the pass failed to send: then the pass is worth redelivering whole. */
    public void requireSomeSent() {
        int failed = notSent.get();
        if (failed > 0 && sent.values().stream().mapToInt(AtomicInteger::get).sum() == 0) {
            throw new TransientFailureException("the fan-out sink took none of the pass's " + failed
                    + " reconcile events (" + lastFailure + ")", null);
        }
    }

    /** One area's part of this pass. */
    public final class ForArea {

        private final String area;

        ForArea(String area) {
            this.area = area;
        }

        /**
         * Sends each key's event, all at once within the edge's bound, then counts them in the keys' order: one
         * sent, or a failure of the key for its counter.
         */
        <K, S extends K> void emit(Reconciler<K, ?, ?> reconciler, FannedOut<K> events, Iterable<S> keys,
                Function<S, AreaPass.Counter> counters) {
            List<S> emitted = new ArrayList<>();
            List<CompletableFuture<Void>> sends = new ArrayList<>();
            for (S key : keys) {
                emitted.add(key);
                sends.add(send(reconciler.subject(key), events, key));
            }
            for (int i = 0; i < sends.size(); i++) {
                S key = emitted.get(i);
                try {
                    sends.get(i).join();
                    sent.computeIfAbsent(area, a -> new AtomicInteger()).incrementAndGet();
                } catch (CompletionException | java.util.concurrent.CancellationException e) {
                    Throwable why = e.getCause() != null ? e.getCause() : e;
                    lastFailure = String.valueOf(why.getMessage());
                    notSent.incrementAndGet();
                    counters.apply(key).failed(reconciler.subject(key), NOT_SENT,
                            "its reconcile event could not be sent to the fan-out sink: " + why.getMessage());
                }
            }
        }

        private <K> CompletableFuture<Void> send(ObjectRef subject, FannedOut<K> events, K key) {
            try {
                OutgoingEvent e = events.reconcileEvent(key).identified(id(subject), SOURCE, PASS_EXTENSION, passId);
                return sender.send(area, e);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        private String id(ObjectRef subject) {
            return passId + "/" + area + "/" + subject.kind() + "/" + (subject.namespace() == null ? ""
                    : subject.namespace() + "/") + subject.name();
        }
    }
}
