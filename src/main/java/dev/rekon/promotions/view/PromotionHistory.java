package dev.rekon.promotions.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One entry of {@code ImagePromotion.status.history}: a build's phase change in a stage, and when. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromotionHistory(String stage, String image, Long buildCounter, StagePhase phase, Instant at) {

    /** How many entries the status keeps, newest first. */
    public static final int LIMIT = 20;

    /** {@code history} with {@code entry} first, cut to {@link #LIMIT}. */
    public static List<PromotionHistory> prepend(List<PromotionHistory> history, PromotionHistory entry) {
        List<PromotionHistory> out = new ArrayList<>();
        out.add(entry);
        out.addAll(history);
        return List.copyOf(out.subList(0, Math.min(LIMIT, out.size())));
    }

    static PromotionHistory of(JsonNode n) {
        JsonNode counter = n.get("buildCounter");
        return new PromotionHistory(PromotionStage.text(n, "stage"), PromotionStage.text(n, "image"),
                counter != null && counter.canConvertToLong() ? counter.asLong() : null,
                StagePhase.of(PromotionStage.text(n, "phase")), StageStatus.instant(PromotionStage.text(n, "at")));
    }
}
