package dev.rekon.status;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.rekon.core.Decisions;
import dev.rekon.core.ObjectRef;
import dev.rekon.status.StatusReport.Decision;

/**
 * The last {@value #CAPACITY} decisions this process answered with, in memory only: each replica keeps its own, and
 * a restart forgets them. Fed through {@link Decisions} by every path that answers: the function endpoint's
 * observer ({@code EventObservability}) and the webhook endpoints.
 */
@Singleton
public class DecisionLog implements Decisions {

    public static final int CAPACITY = 200;

    private final Deque<Decision> recent = new ArrayDeque<>(CAPACITY);
    private final Clock clock;

    @Inject
    public DecisionLog(Clock clock) {
        this.clock = clock;
    }

    /** Records one decision, dropping the oldest beyond {@value #CAPACITY}. */
    @Override
    public void record(String type, String outcome, String reason, String message, List<ObjectRef> objects) {
        Decision d = new Decision(clock.instant(), type, outcome, reason, message, objects);
        synchronized (recent) {
            if (recent.size() == CAPACITY) {
                recent.removeLast();
            }
            recent.addFirst(d);
        }
    }

    /** Newest first. */
    public List<Decision> recent() {
        synchronized (recent) {
            return new ArrayList<>(recent);
        }
    }
}
