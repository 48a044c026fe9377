package dev.rekon.buildpacks.view;

import java.util.List;

/**
 * Where buildpacks come from during resolution: a Buildpack or ClusterBuildpack (its {@code status.buildpacks},
 * no registry read) or a buildpackage image a Builder names directly (kind {@link #IMAGE}, name = the image).
 */
public record BuildpackSource(String kind, String namespace, String name, List<BuildpackEntry> buildpacks) {

    public static final String BUILDPACK = "Buildpack";
    public static final String CLUSTER_BUILDPACK = "ClusterBuildpack";
    public static final String IMAGE = "image";

    public BuildpackSource {
        buildpacks = buildpacks == null ? List.of() : List.copyOf(buildpacks);
    }

    public boolean provides(String id) {
        return buildpacks.stream().anyMatch(b -> b.id().equals(id));
    }

    @Override
    public String toString() {
        return IMAGE.equals(kind) ? "image " + name : kind + " " + (namespace == null ? "" : namespace + "/") + name;
    }
}
