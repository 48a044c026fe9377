package dev.rekon.promotions.status;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One ImagePromotion on the page: its source kpack Image, Ready with its reason and message, and its stages left to
 * right, as its last plan on this replica decided them.
 *
 * @param problem    Ready is not True (bad input), or a stage failed or rolled back
 * @param carriedOut whether that plan was written in full (false while it was only reported, or failed part-way)
 * @param planned    when that plan was made
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromotionStages(String namespace, String name, String source, String ready, String reason,
        String message, boolean problem, List<StageCell> stages, boolean carriedOut, Instant planned) {

    public PromotionStages {
        stages = List.copyOf(stages);
    }

    /** The same promotion with each soak's time left counted from {@code now}, and whether its plan was written. */
    PromotionStages at(Instant now, boolean written) {
        return new PromotionStages(namespace, name, source, ready, reason, message, problem,
                stages.stream().map(s -> s.at(now)).toList(), written, planned);
    }
}
