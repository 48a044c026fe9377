package dev.rekon.promotions.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A PromotedImage's status: what a kpack Image's says to a rollout ({@code latestImage}, {@code buildCounter},
 * {@code Ready}), so that ImageDeploys follow it unchanged, and where the build came from. Its
 * {@code buildCounter} counts the writes to this PromotedImage, one up each time, so that a rollback to an older
 * build is still a newer one to the stage's rollouts (which never move backwards); the source Image's own build
 * number, which orders builds for promotion, is {@code source.buildCounter}.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromotedImageStatus(Long observedGeneration, String latestImage, Long buildCounter, Source source,
        List<Conditions.Written> conditions) {

    /**
     * The source kpack Image (namespace and name in the promoting cluster), its build number (what orders builds
     * for promotion), the stage the build was proven in (null for a first stage) and its digest.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Source(String namespace, String image, Long buildCounter, String stage, String digest) {
    }

    public PromotedImageStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }

    public static PromotedImageStatus of(JsonNode status) {
        if (status == null || !status.isObject()) {
            return new PromotedImageStatus(null, null, null, null, List.of());
        }
        JsonNode src = status.path("source");
        JsonNode counter = status.get("buildCounter");
        JsonNode generation = status.path("observedGeneration");
        return new PromotedImageStatus(generation.canConvertToLong() ? generation.asLong() : null,
                PromotionStage.text(status, "latestImage"),
                counter != null && counter.canConvertToLong() ? counter.asLong() : null,
                src.isObject() ? new Source(PromotionStage.text(src, "namespace"), PromotionStage.text(src, "image"),
                        StageStatus.number(src, "buildCounter"), PromotionStage.text(src, "stage"),
                        PromotionStage.text(src, "digest")) : null,
                Conditions.read(status.path("conditions")));
    }

    /** The build it carries, numbered as its source Image numbered it; null when it carries none. */
    public Build build() {
        return latestImage == null ? null : new Build(latestImage, source == null ? null : source.buildCounter());
    }
}
