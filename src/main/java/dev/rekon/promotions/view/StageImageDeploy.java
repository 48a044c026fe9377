package dev.rekon.promotions.view;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;

/**
 * What a promotion reads of an ImageDeploy in a stage, whichever promotion reads it: the image each name runs
 * ({@code status.images}), its {@code Ready} and {@code RolledOut} conditions (null when absent) and the Deployment
 * it writes, which tells whether it rolled out when an older Rekon wrote no {@code RolledOut}.
 */
public record StageImageDeploy(String namespace, String name, String resourceVersion, Map<String, String> images,
        Conditions.Written ready, Conditions.Written rolledOut, String deployment) {

    public StageImageDeploy {
        images = Map.copyOf(images);
    }

    public static StageImageDeploy fromJson(JsonNode idp) {
        JsonNode meta = idp.path("metadata");
        return of(meta.path("namespace").asText(null), meta.path("name").asText(null),
                meta.path("resourceVersion").asText(null), idp.path("status"));
    }

    public static StageImageDeploy of(String namespace, String name, String resourceVersion, JsonNode status) {
        Map<String, String> images = new LinkedHashMap<>();
        for (JsonNode applied : status.path("images")) {
            String image = applied.path("image").asText(null);
            if (applied.hasNonNull("name") && image != null) {
                images.put(applied.path("name").asText(), image);
            }
        }
        return new StageImageDeploy(namespace, name, resourceVersion, images, written(status, "Ready"),
                written(status, "RolledOut"), status.path("deployment").asText(name));
    }

    /** Whether its conditions settle whatever build it runs, proving it or failing it ({@link StageDeploy#settles}). */
    public boolean settled() {
        return StageDeploy.settles(ready, rolledOut);
    }

    /**
     * Whether it settles a build that {@code before} did not settle the same way: it settles one, and {@code before}
     * settled none, ran other images, or said otherwise in {@code Ready} or {@code RolledOut} (status or reason).
     */
    public boolean newlySettledSince(StageImageDeploy before) {
        return settled() && (before == null || !before.settled() || !images.equals(before.images)
                || !same(ready, before.ready) || !same(rolledOut, before.rolledOut));
    }

    private static boolean same(Conditions.Written a, Conditions.Written b) {
        return a == null ? b == null : b != null && Objects.equals(a.status(), b.status())
                && Objects.equals(a.reason(), b.reason());
    }

    /** What proof needs of it for a promotion whose ImageDeploys follow {@code followed}. */
    public StageDeploy following(String followed) {
        return new StageDeploy(name, images.get(followed), ready, rolledOut);
    }

    private static Conditions.Written written(JsonNode status, String type) {
        return Conditions.read(status.path("conditions")).stream().filter(c -> type.equals(c.type())).findFirst()
                .orElse(null);
    }
}
