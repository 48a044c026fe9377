package dev.rekon.modules.publish.plan;

import java.time.Instant;

/**
 * Where one promotion rule stands for a module: the {@code channel} it moves, the {@code source} it follows, what
 * the channel offers and the candidate the source offers, and its state: {@code Converged} (nothing newer to
 * move to), {@code Soaking} (since {@code since}, due at {@code due}), {@code Promoted} (moved by this plan),
 * {@code Blocked} (an unhealthy Kyma, a failed verification, a step the policy refuses) or {@code Held} (no Kyma
 * to soak on, a Kyma not yet ready, the maintenance window), with the reason and a message naming what it waits for.
 */
public record ChannelPromotion(String channel, String source, String offers, String candidate, String state,
        String reason, String message, Instant since, Instant due) {

    public static final String CONVERGED = "Converged";
    public static final String SOAKING = "Soaking";
    public static final String PROMOTED = "Promoted";
    public static final String BLOCKED = "Blocked";
    public static final String HELD = "Held";

    /** The value of the release meta's annotation {@value SoakPlanner#STATUS_PREFIX}{@code <channel>}. */
    public String annotation() {
        return state + " (" + reason + "): " + message;
    }
}
