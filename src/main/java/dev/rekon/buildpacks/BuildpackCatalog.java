package dev.rekon.buildpacks;

import java.util.List;

/**
 * The Buildpacks and ClusterBuildpacks as Builders resolve against them, without a list per event; what an
 * event itself read or wrote stands in until the watches catch up, so a Builder is never resolved against an
 * older buildpack than the event knew.
 */
public interface BuildpackCatalog {

    /** What is kept of one Buildpack or ClusterBuildpack: its buildpacks, and the repository of its image. */
    record Cataloged(BuildpackSource source, String repository) {
    }

    /** The ClusterBuildpacks (for namespace null) or the Buildpacks of a namespace. */
    List<BuildpackSource> sources(String kind, String namespace);

    /** The Buildpacks (of allowed namespaces) and ClusterBuildpacks whose image is in this repository. */
    List<Cataloged> naming(String repositoryKey);

    /** Records a Buildpack or ClusterBuildpack an event read or wrote at {@code resourceVersion}. */
    void knows(BuildpackSource source, String image, String resourceVersion);

    /** Records that an event found a Buildpack or ClusterBuildpack deleted. */
    void gone(BuildpackSource source);
}
