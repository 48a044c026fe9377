package dev.rekon.pipeline;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One key's place in the {@link WorkQueue}: who works it now, what waits its turn (in order), what waits for its
 * time (one per kind), and when each kind last started (for spacing). Guarded by the queue's lock.
 */
final class KeySlot {

    final Object key;
    Thread owner;
    int holds;
    int waiters;
    boolean queued;
    Object running;
    long keepUntil;
    final ArrayDeque<QueuedWork<?, ?>> pending = new ArrayDeque<>();
    final Map<Object, QueuedWork<?, ?>> delayed = new HashMap<>();
    final Map<Object, Long> lastStart = new HashMap<>();

    KeySlot(Object key) {
        this.key = key;
    }

    /** The last pending work of the same kind, when it takes the new one's input; else null. */
    QueuedWork<?, ?> mergeable(QueuedWork<?, ?> newer) {
        for (var it = pending.descendingIterator(); it.hasNext();) {
            QueuedWork<?, ?> p = it.next();
            if (p.kind.equals(newer.kind)) {
                return p.merges(newer) ? p : null;
            }
        }
        return null;
    }

    boolean idle() {
        return owner == null && waiters == 0 && pending.isEmpty() && delayed.isEmpty();
    }

    boolean busyWith(Predicate<Object> kinds) {
        return (running != null && kinds.test(running)) || pending.stream().anyMatch(w -> kinds.test(w.kind))
                || delayed.keySet().stream().anyMatch(kinds);
    }
}
