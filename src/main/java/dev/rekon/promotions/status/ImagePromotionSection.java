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
    public static final String SCOPE = "the last plan of each ImagePromotion on this replica (events, approvals, soak"
            + " ends, resync passes; a report-mode resync plans them all again without writing)";

    public ImagePromotionSection {
        rows = List.copyOf(rows);
    }

    @Override
    public Slot slot() {
        return Slot.of(KEY);
    }
}
