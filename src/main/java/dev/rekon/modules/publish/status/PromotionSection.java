package dev.rekon.modules.publish.status;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.status.AreaSection;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The channels of published modules that promotion rules move: one row per rule, blocked rows first, each what
 * the promotion planner decided last and wrote on the ModuleReleaseMeta (what the channel offers, what soaks and
 * since when, what holds or blocks it and why).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromotionSection(String scope, int blocked, List<PromotionRow> rows) implements AreaSection {

    public static final String SCOPE = "the state each promotion rule's last plan wrote on its ModuleReleaseMeta"
            + " (rekon.dev/promotion.<channel>); GET /modules plans them again in report mode";

    public PromotionSection {
        rows = List.copyOf(rows);
    }

    @Override
    public Slot slot() {
        return new Slot("promotions", 32, Json.TOP);
    }

    @Override
    public String summaryHtml() {
        return AreaSection.counted(rows.size(), "promotion rules", blocked, "blocked");
    }

    /**
     * One rule: the channel it moves, the version the channel offers, and the rule's state ({@code Converged},
     * {@code Soaking}, {@code Held}, {@code Blocked}) with its reason and message; {@code soakingSince} is the soak
     * record ({@code <version>@<instant>}) or null.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PromotionRow(String namespace, String module, String channel, String offers, String state,
            String reason, String message, String soakingSince, boolean problem) {
    }
}
