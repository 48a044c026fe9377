package dev.rekon.promotions.status;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.status.AreaSection;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The ImagePromotions' section of the page (area {@code imagepromotions}, JSON {@code sections.imagePromotions}):
 * each promotion's stages left to right, problems first; its HTML is {@code ImagePromotionSection/rows.html}.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ImagePromotionSection(String scope, int problems, List<PromotionStages> rows) implements AreaSection {

    public static final String KEY = "imagePromotions";
    public static final String SCOPE = "each ImagePromotion planned now from its spec and the source Image and stages"
            + " as this replica last read them (no stage is read for the page)";

    public ImagePromotionSection {
        rows = List.copyOf(rows);
    }

    @Override
    public Slot slot() {
        return Slot.of(KEY);
    }
}
