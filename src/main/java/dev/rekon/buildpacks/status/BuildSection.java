package dev.rekon.buildpacks.status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.status.AreaSection;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The buildpacks' section of the page (area {@code buildpacks}; JSON {@code buildpacks} and {@code builders} at the
 * top of the document): every Buildpack, ClusterBuildpack, Builder and ClusterBuilder, failing first. Its HTML is
 * {@code BuildSection/rows.html}.
 */
@RegisterForReflection
public record BuildSection(List<BuildpackRow> buildpacks, List<BuilderRow> builders) implements AreaSection {

    public BuildSection {
        buildpacks = List.copyOf(buildpacks);
        builders = List.copyOf(builders);
    }

    @Override
    public Slot slot() {
        return new Slot("buildpacks", 20, Json.UNWRAPPED);
    }

    @Override
    public Map<String, Integer> counts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("buildpacks", buildpacks.size());
        counts.put("builders", builders.size());
        counts.put("buildProblems", (int) (buildpacks.stream().filter(BuildpackRow::problem).count()
                + builders.stream().filter(BuilderRow::problem).count()));
        return counts;
    }

    @Override
    public String summaryHtml() {
        Map<String, Integer> c = counts();
        return "<span>" + c.get("buildpacks") + " buildpacks, " + c.get("builders") + " builders, <b>"
                + c.get("buildProblems") + "</b> failing</span>";
    }

    /** One Buildpack or ClusterBuildpack. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BuildpackRow(String kind, String namespace, String name, String image, String digest, String ready,
            boolean problem, String reason, String message, String lastRead, List<String> buildpacks) {
    }

    /** One Builder or ClusterBuilder, with its resolved order in short. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BuilderRow(String kind, String namespace, String name, String ready, boolean problem, String reason,
            String error, List<String> order) {
    }
}
