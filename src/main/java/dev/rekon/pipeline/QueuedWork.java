package dev.rekon.pipeline;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.jboss.logging.MDC;

/**
 * One piece of work in the {@link WorkQueue}: its key and kind, the input it runs with (replaced when a newer one
 * merges into it), and the one future every caller merged into it waits on.
 */
final class QueuedWork<I, T> {

    final Object key;
    final Object kind;
    final WorkQueue.Merge<I> merge;
    final Duration spacing;
    final CompletableFuture<T> done = new CompletableFuture<>();
    I input;
    Function<I, T> work;
    /** The submitter's log context (an event's traceparent), for the logs the work makes on a worker. */
    Map<String, Object> logContext = MDC.getMap();
    long due;
    boolean awaited;

    QueuedWork(Object key, Object kind, I input, WorkQueue.Merge<I> merge, Function<I, T> work, long due,
            Duration spacing) {
        this.key = key;
        this.kind = kind;
        this.input = input;
        this.merge = merge;
        this.work = work;
        this.due = due;
        this.spacing = spacing;
    }

    @SuppressWarnings("unchecked")
    boolean merges(QueuedWork<?, ?> newer) {
        return merge.merge(input, (I) newer.input) != null;
    }

    /** Takes the newer work's input (merged) and work; its callers wait on this one's future. */
    @SuppressWarnings("unchecked")
    QueuedWork<I, T> absorb(QueuedWork<?, ?> newer) {
        QueuedWork<I, T> n = (QueuedWork<I, T>) newer;
        I merged = merge.merge(input, n.input);
        input = merged != null ? merged : n.input;
        work = n.work;
        logContext = n.logContext;
        awaited |= n.awaited;
        return this;
    }

    void run() {
        logContext.forEach(MDC::put);
        try {
            done.complete(work.apply(input));
        } catch (RuntimeException | Error e) {
            done.completeExceptionally(e);
        } finally {
            MDC.clear();
        }
    }
}
