package dev.rekon.pipeline;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides when a plan that asked to be planned again ({@link Reconciler.Plan#rescheduleAfter}) is: after the delay
 * it asked for, unless it polls ({@link Reconciler.Plan#rescheduleBacksOff}) and was itself such a recheck that wrote
 * nothing; then after twice the delay of the recheck before, up to {@link #MAX}. A rollout that no controller
 * finishes (or that never ends) is then not planned every few seconds for ever, while any plan of the key that
 * writes, or that came from anything but a recheck (an event, a resync), starts again from the delay asked.
 */
final class Rechecks {

    /** The longest a polling plan waits: the default resync interval, which plans every key anyway. */
    static final Duration MAX = Duration.ofMinutes(5);

    /** Per key, how many rechecks in a row wrote nothing. */
    private final ConcurrentHashMap<Object, Integer> quiet = new ConcurrentHashMap<>();

    /** When to plan the key {@code id} again after {@code plan}, written by a recheck or not; empty: not at all. */
    Optional<Duration> next(Object id, Reconciler.Plan plan, boolean recheck) {
        Optional<Duration> asked = plan.rescheduleAfter();
        if (asked.isEmpty() || !recheck || !plan.rescheduleBacksOff() || plan.writes()) {
            quiet.remove(id);
            return asked;
        }
        int times = quiet.merge(id, 1, Integer::sum);
        Duration delay = asked.get();
        for (int i = 0; i < times && delay.compareTo(MAX) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return Optional.of(delay.compareTo(MAX) > 0 ? MAX : delay);
    }

    /** Forgets a key that is gone. */
    void forget(Object id) {
        quiet.remove(id);
    }
}
