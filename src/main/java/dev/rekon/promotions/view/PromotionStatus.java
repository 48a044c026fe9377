package dev.rekon.promotions.view;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An ImagePromotion's status, as read and as a plan writes it (whole, over the subresource): the generation it was
 * decided for, one entry per stage in spec order, the bounded history, and the conditions ({@code Ready}).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromotionStatus(Long observedGeneration, List<StageStatus> stages, List<PromotionHistory> history,
        List<Conditions.Written> conditions) {

    public PromotionStatus {
        stages = stages == null ? List.of() : List.copyOf(stages);
        history = history == null ? List.of() : List.copyOf(history);
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }

    public static final PromotionStatus NONE = new PromotionStatus(null, List.of(), List.of(), List.of());

    public static PromotionStatus of(JsonNode status) {
        if (status == null || !status.isObject()) {
            return NONE;
        }
        List<StageStatus> stages = new ArrayList<>();
        status.path("stages").forEach(s -> stages.add(StageStatus.of(s)));
        List<PromotionHistory> history = new ArrayList<>();
        status.path("history").forEach(h -> history.add(PromotionHistory.of(h)));
        JsonNode generation = status.path("observedGeneration");
        return new PromotionStatus(generation.canConvertToLong() ? generation.asLong() : null, stages, history,
                Conditions.read(status.path("conditions")));
    }

    /** The stage's entry, or an empty one. */
    public StageStatus stage(String name) {
        return stages.stream().filter(s -> name.equals(s.name())).findFirst().orElse(StageStatus.empty(name));
    }

    /** The condition of that type, or null. */
    public Conditions.Written condition(String type) {
        return conditions.stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }
}
