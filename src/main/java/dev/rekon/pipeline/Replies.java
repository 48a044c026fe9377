package dev.rekon.pipeline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;

/**
 * The one rule for answering an event that touched several objects with one reply, in every area:
 * <ul>
 * <li>the outcome is {@code applied} if any part was applied (the cluster changed, and the sender must know),
 * else {@code rejected} if any part was rejected (a refusal is never hidden behind no-ops), else
 * {@code unchanged};</li>
 * <li>the reason is that of the first part with that outcome;</li>
 * <li>the message joins every part's message with "; ", in order; the objects are every part's, in order, once;</li>
 * <li>the area facts are those of the first part with that outcome.</li>
 * </ul>
 * One part is its own reply; no part is {@code nothing}.
 */
public final class Replies {

    private Replies() {
    }

    public static Reply combine(List<Reply> parts, Reply nothing) {
        return parts.isEmpty() ? nothing : combine(parts);
    }

    public static Reply combine(List<Reply> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no reply to combine");
        }
        if (parts.size() == 1) {
            return parts.get(0);
        }
        Outcome outcome = leading(parts);
        Reply lead = parts.stream().filter(r -> r.outcome() == outcome).findFirst().orElseThrow();
        List<String> messages = new ArrayList<>();
        LinkedHashSet<ObjectRef> objects = new LinkedHashSet<>();
        for (Reply r : parts) {
            if (r.message() != null && !r.message().isBlank()) {
                messages.add(r.message());
            }
            objects.addAll(r.objects());
        }
        Map<String, String> details = new LinkedHashMap<>(lead.details());
        return new Reply(outcome, lead.reason(), String.join("; ", messages), new ArrayList<>(objects), details);
    }

    static Outcome leading(List<Reply> parts) {
        if (parts.stream().anyMatch(r -> r.outcome() == Outcome.APPLIED)) {
            return Outcome.APPLIED;
        }
        return parts.stream().anyMatch(r -> r.outcome() == Outcome.REJECTED) ? Outcome.REJECTED : Outcome.UNCHANGED;
    }
}
