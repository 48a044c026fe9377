package dev.rekon.buildpacks.catalog;

import java.util.List;

import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;

/**
 * The Buildpacks and ClusterBuildpacks as Builders resolve against them, without a list per event; what an
 * event itself read or wrote stands in until the watches catch up, so a Builder is never resolved against an
 * older buildpack than the event knew.
 */
public interface BuildpackCatalog {

    /**
     * What is kept of one Buildpack or ClusterBuildpack: its buildpacks, the repository of its image, and what a
     * resync re-checks of it (null when only the buildpacks are known).
     */
    record Cataloged(BuildpackSource source, String repository, RecheckView recheck) {

        public Cataloged(BuildpackSource source, String repository) {
            this(source, repository, null);
        }
    }

    /** The ClusterBuildpacks (for namespace null) or the Buildpacks of a namespace. */
    List<BuildpackSource> sources(String kind, String namespace);

    /** The Buildpacks (of allowed namespaces) and ClusterBuildpacks whose image is in this repository. */
    List<Cataloged> naming(String repositoryKey);

    /**
     * Every Buildpack (of {@code namespace}, or of every allowed namespace when null) and, when namespace is
     * null, every ClusterBuildpack, as a resync re-checks them: with no read per object.
     */
    List<RecheckView> rechecks(String namespace);

    /** Records a Buildpack or ClusterBuildpack an event read or wrote at {@code resourceVersion}. */
    void knows(BuildpackSource source, String image, String resourceVersion);

    /** Records one with the status an event read or wrote, so that a resync re-checks it as the event left it. */
    default void knows(BuildpackView view, String resourceVersion) {
        knows(view.asSource(), view.image(), resourceVersion);
    }

    /** Records that an event found a Buildpack or ClusterBuildpack deleted. */
    void gone(BuildpackSource source);
}
