package dev.rekon.promotions.view;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An ImagePromotion's spec as typed fields: the kpack Image whose builds enter the first stage, the stages in
 * order, and whether a failed build's stage goes back to its last proven image. Whether the spec is usable
 * (unique names, at least one stage, durations) is the planner's to say, so that the status tells what to fix.
 */
public record ImagePromotionSpec(String sourceImage, List<PromotionStage> stages, Rollback rollback) {

    public enum Rollback {
        NONE, AUTOMATIC;

        static Rollback of(String text) {
            return "Automatic".equalsIgnoreCase(text) ? AUTOMATIC : NONE;
        }
    }

    public ImagePromotionSpec {
        stages = stages == null ? List.of() : List.copyOf(stages);
        rollback = rollback == null ? Rollback.NONE : rollback;
    }

    public static ImagePromotionSpec of(JsonNode spec) {
        List<PromotionStage> stages = new ArrayList<>();
        spec.path("stages").forEach(s -> stages.add(PromotionStage.of(s)));
        return new ImagePromotionSpec(PromotionStage.text(spec.path("source"), "image"), stages,
                Rollback.of(PromotionStage.text(spec, "rollback")));
    }

    /** The stage of that name, or null. */
    public PromotionStage stage(String name) {
        return stages.stream().filter(s -> name.equals(s.name())).findFirst().orElse(null);
    }
}
