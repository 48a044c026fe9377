package dev.rekon.promotions.status;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One ImagePromotion on the page: its source kpack Image, Ready with its reason and message, and its stages left to
 * right, as its plan made for the page decided them.
 *
 * @param problem    Ready is not True (bad input), or a stage failed or rolled back
 * @param carriedOut whether the promotion already is as planned (the plan writes nothing); false: the next event,
 *                   soak end or resync writes it
 * @param planned    when that plan was made (the page's now)
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromotionStages(String namespace, String name, String source, String ready, String reason,
        String message, boolean problem, List<StageCell> stages, boolean carriedOut, Instant planned) {

    public PromotionStages {
        stages = List.copyOf(stages);
    }

    /** The same promotion with each soak's time left counted from {@code now}, and whether its plan is written. */
    PromotionStages at(Instant now, boolean written) {
        return new PromotionStages(namespace, name, source, ready, reason, message, problem,
                stages.stream().map(s -> s.at(now)).toList(), written, planned);
    }
}
