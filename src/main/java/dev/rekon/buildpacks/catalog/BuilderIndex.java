package dev.rekon.buildpacks.catalog;

import java.util.Collection;
import java.util.List;

import dev.rekon.buildpacks.plan.AffectedBuilders;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.cluster.Versioned;

/**
 * The Builders and ClusterBuilders by what their order names (the keys of {@link AffectedBuilders}), so that a
 * buildpack change or a push finds the Builders it concerns without listing them. A view comes with the
 * resourceVersion it was seen at, to guard the write planned from it.
 */
public interface BuilderIndex {

    /**
     * The Builders (and, for a ClusterBuildpack, ClusterBuilders) in the scope of {@code changed} under one of
     * {@code keys}; every one in scope when keys is null.
     */
    List<Versioned<BuilderView>> candidates(BuildpackSource changed, Collection<String> keys);

    /** The Builders and ClusterBuilders whose order names an image of this repository directly. */
    List<Versioned<BuilderView>> namingRepository(String repositoryKey);

    /** Every Builder (of {@code namespace}, or of every allowed one when null) and, when null, every ClusterBuilder. */
    List<Versioned<BuilderView>> all(String namespace);
}
