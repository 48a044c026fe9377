package dev.rekon.pipeline;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.rekon.core.TransientFailureException;

/**
 * Decides which thread works which key, and when: a key (one object) is worked by at most one thread of the
 * process at a time, whatever the kind of work; work of one kind that arrives for a key while an earlier one still
 * waits its turn is merged into it (by default when it is the same input; a reschedule keeps the newest input), so
 * it runs once; different keys run in parallel on at most {@link #parallelism()} worker threads; work may wait a
 * delay first, and may be spaced (at most one start per spacing for a key and kind). Work someone waits on runs
 * on its caller's thread ({@link #run}: an event's reply), still alone on its key; the workers take what is
 * submitted (a resync pass's keys, reschedules).
 * <p>
 * Work started from inside work (a reconcile of the Builders a Buildpack affects, a retry's inner loop) runs on the
 * same thread, still alone on its key, so that a bounded pool cannot wait on itself. The model is client-go's
 * workqueue (dirty and processing sets) and JOSDK's per-resource executor, with {@code rescheduleAfter}.
 */
public final class WorkQueue implements AutoCloseable {

    /** The one input to run when {@code newer} arrives while {@code pending} waits, or null to run both in turn. */
    @FunctionalInterface
    public interface Merge<I> {
        I merge(I pending, I newer);
    }

    /** The newest input replaces the one that waits. */
    public static <I> Merge<I> newest() {
        return (pending, newer) -> newer;
    }

    /** A repeated input (equal to the one that waits) runs once; a different one runs after it. */
    public static <I> Merge<I> repeated() {
        return (pending, newer) -> pending.equals(newer) ? newer : null;
    }

    private static final ThreadLocal<Boolean> INSIDE = new ThreadLocal<>();
    private static final int SWEEP_ABOVE = 10_000;

    private final int parallelism;
    private final ReentrantLock lock = new ReentrantLock();
    /** A key became ready or delayed work was added: one idle worker is woken, never all of them. */
    private final Condition workReady = lock.newCondition();
    /** A key was released or work ended: for threads waiting to work a key here, and for awaitIdle. */
    private final Condition settled = lock.newCondition();
    private final Map<Object, KeySlot> slots = new HashMap<>();
    private final ArrayDeque<KeySlot> awaited = new ArrayDeque<>();
    private final ArrayDeque<KeySlot> background = new ArrayDeque<>();
    private final PriorityQueue<QueuedWork<?, ?>> delayed = new PriorityQueue<>(Comparator.comparingLong(w -> w.due));
    private final List<Thread> workers = new ArrayList<>();
    private boolean closed;
    private int sweepAbove = SWEEP_ABOVE;

    public WorkQueue(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
        }
        this.parallelism = parallelism;
        for (int i = 0; i < parallelism; i++) {
            Thread t = new Thread(this::work, "rekon-reconcile-" + i);
            t.setDaemon(true);
            workers.add(t);
            t.start();
        }
    }

    public int parallelism() {
        return parallelism;
    }

    /** Whether the calling thread is working a key (then work it starts runs on it, see the class comment). */
    public static boolean working() {
        return INSIDE.get() != null;
    }

    /**
     * Runs the work for {@code key} on the calling thread once no other thread works the key, and answers its
     * result, throwing what it threw: an event's reply is made on its own request thread (bounded by the server's
     * worker pool and Knative's {@code containerConcurrency}), so events never queue behind a pass's keys and pay
     * no hand-off; the key stays one thread's at a time, whoever else works it.
     */
    public <I, T> T run(Object key, Object kind, I input, Merge<I> merge, Function<I, T> work) {
        return runHere(key, input, work);
    }

    /**
     * Queues the work for {@code key}, which its caller waits on (a resync pass's keys); the future completes with
     * its result. It runs ahead of background work (reschedules, status passes) come due: those follow a reply,
     * and a pass's reply is all of its keys, so at fleet scale a pass's writes are not interleaved with theirs.
     */
    public <I, T> CompletableFuture<T> submit(Object key, Object kind, I input, Merge<I> merge, Function<I, T> work) {
        return enqueue(new QueuedWork<>(key, kind, input, merge, work, 0, Duration.ZERO), true);
    }

    /**
     * Queues the work after {@code delay}, and no sooner than {@code spacing} after the last start of this key's
     * work of this kind; one already waiting for its time takes the newest input and the earlier of the two times
     * (a plan asking again sooner, such as a shorter soak, is not held back by an earlier plan's later time).
     */
    public <I> CompletableFuture<?> after(Object key, Object kind, Duration delay, Duration spacing, I input,
            Function<I, ?> work) {
        long now = System.nanoTime();
        lock.lock();
        try {
            KeySlot slot = slot(key);
            QueuedWork<?, ?> waiting = slot.delayed.get(kind);
            Long last = slot.lastStart.get(kind);
            long due = Math.max(now + delay.toNanos(), last == null ? now : last + spacing.toNanos());
            if (waiting != null) {
                if (due < waiting.due) {
                    delayed.remove(waiting);
                    waiting.due = due;
                    delayed.add(waiting);
                    workReady.signal();
                }
                return waiting.absorb(new QueuedWork<>(key, kind, input, newest(), work, 0, spacing)).done;
            }
            QueuedWork<I, ?> w = new QueuedWork<>(key, kind, input, newest(), work, due, spacing);
            if (due <= now) {
                return enqueueLocked(slot, w, false).done;
            }
            slot.delayed.put(kind, w);
            delayed.add(w);
            workReady.signal();
            return w.done;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes the work of {@code kind} that waits for its time on {@code key} due now, when {@code covers} holds for its
     * input, and answers whether work of that kind whose input it holds for waits on the key (for its time or its
     * turn): a caller asking for work that this one does anyway need not queue its own, nor wait out its spacing.
     */
    public boolean hasten(Object key, Object kind, Predicate<Object> covers) {
        lock.lock();
        try {
            KeySlot slot = slots.get(key);
            if (slot == null) {
                return false;
            }
            QueuedWork<?, ?> waiting = slot.delayed.get(kind);
            if (waiting != null && covers.test(waiting.input)) {
                slot.delayed.remove(kind);
                delayed.remove(waiting);
                enqueueLocked(slot, waiting, false);
                return true;
            }
            return slot.pending.stream().anyMatch(w -> w.kind.equals(kind) && covers.test(w.input));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes back the work of {@code kind} that waits on {@code key} (for its time or its turn; not work that runs),
     * its callers answered with null; true when there was some: the caller queues work that does what it would.
     */
    public boolean withdraw(Object key, Object kind) {
        List<QueuedWork<?, ?>> taken = new ArrayList<>();
        lock.lock();
        try {
            KeySlot slot = slots.get(key);
            if (slot == null) {
                return false;
            }
            QueuedWork<?, ?> waiting = slot.delayed.remove(kind);
            if (waiting != null) {
                delayed.remove(waiting);
                taken.add(waiting);
            }
            for (Iterator<QueuedWork<?, ?>> it = slot.pending.iterator(); it.hasNext();) {
                QueuedWork<?, ?> w = it.next();
                if (w.kind.equals(kind)) {
                    it.remove();
                    taken.add(w);
                }
            }
            settled.signalAll();
        } finally {
            lock.unlock();
        }
        taken.forEach(w -> w.done.complete(null));
        return !taken.isEmpty();
    }

    /** How long until the earliest work waiting for its time on {@code key} is due; empty when none waits. */
    public Optional<Duration> dueIn(Object key) {
        long now = System.nanoTime();
        lock.lock();
        try {
            KeySlot slot = slots.get(key);
            return slot == null ? Optional.empty() : slot.delayed.values().stream().mapToLong(w -> w.due).min()
                    .stream().mapToObj(due -> Duration.ofNanos(Math.max(0, due - now))).findFirst();
        } finally {
            lock.unlock();
        }
    }

    /** Makes the delayed work of the kinds named due now, and waits for all of it, at most {@code timeout}. */
    public boolean runWaitingNow(Predicate<Object> kinds, Duration timeout) {
        lock.lock();
        try {
            List<QueuedWork<?, ?>> due = delayed.stream().filter(w -> kinds.test(w.kind)).toList();
            delayed.removeAll(due);
            due.forEach(w -> w.due = 0);
            delayed.addAll(due);
            workReady.signalAll();
        } finally {
            lock.unlock();
        }
        return awaitIdle(kinds, timeout);
    }

    /** Waits until no work of the kinds named waits or runs, at most {@code timeout}; true when none does. */
    public boolean awaitIdle(Predicate<Object> kinds, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (slots.values().stream().anyMatch(s -> s.busyWith(kinds))) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    settled.await(Math.max(1, left / 1_000_000), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Stops the workers once they finish what they run; work still queued fails as transient (redelivered). */
    @Override
    public void close() {
        List<QueuedWork<?, ?>> dropped = new ArrayList<>();
        lock.lock();
        try {
            closed = true;
            slots.values().forEach(s -> {
                dropped.addAll(s.pending);
                s.pending.clear();
            });
            dropped.addAll(delayed);
            delayed.clear();
            workReady.signalAll();
            settled.signalAll();
        } finally {
            lock.unlock();
        }
        dropped.forEach(w -> w.done.completeExceptionally(new TransientFailureException("Rekon is shutting down", null)));
    }

    private <I, T> CompletableFuture<T> enqueue(QueuedWork<I, T> w, boolean awaitedBySomeone) {
        lock.lock();
        try {
            return enqueueLocked(slot(w.key), w, awaitedBySomeone).done;
        } finally {
            lock.unlock();
        }
    }

    @SuppressWarnings("unchecked")
    private <I, T> QueuedWork<I, T> enqueueLocked(KeySlot slot, QueuedWork<I, T> w, boolean awaitedBySomeone) {
        if (closed) {
            w.done.completeExceptionally(new TransientFailureException("Rekon is shutting down", null));
            return w;
        }
        QueuedWork<I, T> into = (QueuedWork<I, T>) slot.mergeable(w);
        QueuedWork<I, T> queued = into != null ? into.absorb(w) : w;
        if (into == null) {
            slot.pending.add(w);
        }
        queued.awaited |= awaitedBySomeone;
        ready(slot, queued.awaited);
        return queued;
    }

    private void ready(KeySlot slot, boolean awaitedBySomeone) {
        if (slot.owner != null || slot.pending.isEmpty()) {
            return;
        }
        if (awaitedBySomeone) {
            awaited.add(slot);
        } else if (!slot.queued) {
            background.add(slot);
        }
        slot.queued = true;
        workReady.signal();
    }

    private <I, T> T runHere(Object key, I input, Function<I, T> work) {
        Thread me = Thread.currentThread();
        KeySlot slot;
        lock.lock();
        try {
            slot = slot(key);
            slot.waiters++;
            try {
                while (slot.owner != null && slot.owner != me) {
                    settled.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransientFailureException("interrupted while waiting for " + key, e);
            } finally {
                slot.waiters--;
            }
            slot.owner = me;
            slot.holds++;
        } finally {
            lock.unlock();
        }
        Boolean outer = INSIDE.get();
        INSIDE.set(Boolean.TRUE);
        try {
            return work.apply(input);
        } finally {
            INSIDE.set(outer);
            if (outer == null) {
                INSIDE.remove();
            }
            lock.lock();
            try {
                if (--slot.holds == 0) {
                    released(slot);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void work() {
        while (true) {
            KeySlot slot;
            QueuedWork<?, ?> w;
            lock.lock();
            try {
                while ((slot = take()) == null) {
                    if (closed) {
                        return;
                    }
                    try {
                        QueuedWork<?, ?> next = delayed.peek();
                        long wait = next == null ? 0 : Math.max(1, (next.due - System.nanoTime()) / 1_000_000);
                        if (wait == 0) {
                            workReady.await();
                        } else {
                            workReady.await(wait, TimeUnit.MILLISECONDS);
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                w = slot.pending.poll();
                slot.owner = Thread.currentThread();
                slot.holds = 1;
                slot.running = w.kind;
                long now = System.nanoTime();
                slot.lastStart.put(w.kind, now);
                slot.keepUntil = Math.max(slot.keepUntil, now + w.spacing.toNanos());
            } finally {
                lock.unlock();
            }
            INSIDE.set(Boolean.TRUE);
            try {
                w.run();
            } finally {
                INSIDE.remove();
                lock.lock();
                try {
                    slot.holds = 0;
                    slot.running = null;
                    released(slot);
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** The next key a worker may take, delayed work come due first queued; null when there is none. */
    private KeySlot take() {
        long now = System.nanoTime();
        while (!delayed.isEmpty() && delayed.peek().due <= now) {
            QueuedWork<?, ?> w = delayed.poll();
            KeySlot slot = slot(w.key);
            slot.delayed.remove(w.kind);
            enqueueLocked(slot, w, false);
        }
        for (ArrayDeque<KeySlot> lane : List.of(awaited, background)) {
            for (Iterator<KeySlot> it = lane.iterator(); it.hasNext();) {
                KeySlot s = it.next();
                it.remove();
                if (s.queued && s.owner == null && !s.pending.isEmpty()) {
                    s.queued = false;
                    return s;
                }
            }
        }
        return null;
    }

    private void released(KeySlot slot) {
        slot.owner = null;
        slot.queued = false;
        ready(slot, slot.pending.stream().anyMatch(p -> p.awaited));
        if (slot.idle() && slot.keepUntil <= System.nanoTime()) {
            slots.remove(slot.key);
        }
        if (slots.size() > sweepAbove) {
            long now = System.nanoTime();
            slots.values().removeIf(s -> s.idle() && s.keepUntil <= now);
            // A pass of more keys than SWEEP_ABOVE holds them all until they run: sweeping again only after the
            // map has doubled keeps a release O(1) on average, instead of a sweep of every key per release.
            sweepAbove = Math.max(SWEEP_ABOVE, 2 * slots.size());
        }
        settled.signalAll();
    }

    private KeySlot slot(Object key) {
        return slots.computeIfAbsent(key, KeySlot::new);
    }
}
