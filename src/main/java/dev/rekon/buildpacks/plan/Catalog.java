package dev.rekon.buildpacks.plan;

import java.util.List;
import java.util.Map;

import dev.rekon.buildpacks.view.BuildpackSource;

/**
 * Everything a Builder may resolve against, already read: the Buildpacks of its namespace (empty for a
 * ClusterBuilder), all ClusterBuildpacks, and the buildpackage images it names directly ({@code images};
 * an image that could not be read maps to its error in {@code unreadableImages}).
 */
public record Catalog(List<BuildpackSource> buildpacks, List<BuildpackSource> clusterBuildpacks,
        Map<String, BuildpackSource> images, Map<String, String> unreadableImages) {

    public Catalog {
        buildpacks = List.copyOf(buildpacks);
        clusterBuildpacks = List.copyOf(clusterBuildpacks);
        images = Map.copyOf(images);
        unreadableImages = Map.copyOf(unreadableImages);
    }

    public static Catalog of(List<BuildpackSource> buildpacks, List<BuildpackSource> clusterBuildpacks) {
        return new Catalog(buildpacks, clusterBuildpacks, Map.of(), Map.of());
    }

    public Catalog withImage(BuildpackSource image) {
        Map<String, BuildpackSource> all = new java.util.HashMap<>(images);
        all.put(image.name(), image);
        return new Catalog(buildpacks, clusterBuildpacks, all, unreadableImages);
    }

    public Catalog withUnreadableImage(String image, String error) {
        Map<String, String> all = new java.util.HashMap<>(unreadableImages);
        all.put(image, error);
        return new Catalog(buildpacks, clusterBuildpacks, images, all);
    }
}
