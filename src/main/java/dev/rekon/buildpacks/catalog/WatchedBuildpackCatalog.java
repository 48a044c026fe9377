package dev.rekon.buildpacks.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.buildpacks.plan.AffectedBuilders;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;

/**
 * The {@link BuildpackCatalog} fed by watches: each Buildpack's and ClusterBuildpack's {@link BuildpackSource},
 * made once when its watch delivers it (ClusterBuildpacks: one cluster-wide watch; Buildpacks: one per
 * namespace of {@code rekon.namespaces}, or one across all), so that a Builder event lists and converts none
 * of them. What an event itself read or wrote of one stands in for the watch's view until the watch catches
 * up, so a lagging watch never resolves a Builder against an older buildpack than the event knew. Where no
 * watch runs (no RBAC for watch, CRD missing, apiserver down) it lists, as before.
 */
@ApplicationScoped
public class WatchedBuildpackCatalog implements BuildpackCatalog {

    private static final Logger LOG = Logger.getLogger(WatchedBuildpackCatalog.class);

    @Inject
    SharedWatches watches;

    @Inject
    KpackFacets.Buildpacks buildpacks;

    @Inject
    KpackFacets.ClusterBuildpacks clusterBuildpacks;

    @Override
    public List<BuildpackSource> sources(String kind, String namespace) {
        return current(kind, namespace, null).stream().map(Cataloged::source).toList();
    }

    @Override
    public List<Cataloged> naming(String repositoryKey) {
        List<Cataloged> found = new ArrayList<>();
        for (String kind : List.of(BuildpackSource.BUILDPACK, BuildpackSource.CLUSTER_BUILDPACK)) {
            current(kind, null, repositoryKey).stream().filter(c -> repositoryKey.equals(c.repository())).forEach(found::add);
        }
        return found;
    }

    @Override
    public List<RecheckView> rechecks(String namespace) {
        List<Cataloged> all = new ArrayList<>(current(BuildpackSource.BUILDPACK, namespace, null));
        if (namespace == null) {
            all.addAll(current(BuildpackSource.CLUSTER_BUILDPACK, null, null));
        }
        return all.stream().map(Cataloged::recheck).filter(java.util.Objects::nonNull).toList();
    }

    @Override
    public void knows(BuildpackView view, String resourceVersion) {
        known(view.asSource(), resourceVersion, cataloged(view));
    }

    @Override
    public void knows(BuildpackSource source, String image, String resourceVersion) {
        known(source, resourceVersion, new Cataloged(source, AffectedBuilders.repositoryOf(image)));
    }

    @Override
    public void gone(BuildpackSource source) {
        known(source, null, null);
    }

    private void known(BuildpackSource source, String resourceVersion, Cataloged cataloged) {
        views(source.kind()).wrote(source.namespace(), source.name(), resourceVersion, cataloged);
    }

    private List<Cataloged> current(String kind, String namespace, String repositoryKey) {
        return views(kind).latestOrListed(KpackFacets.namespaced(kind) ? namespace : null,
                repositoryKey == null ? null : Set.of(repositoryKey));
    }

    private FacetViews<Cataloged> views(String kind) {
        return watches.of(BuildpackSource.BUILDPACK.equals(kind) ? buildpacks : clusterBuildpacks);
    }

    /** A status whose buildpacks do not parse provides none, rather than failing the watch that delivered it. */
    static Cataloged cataloged(BuildpackView v) {
        BuildpackSource source;
        try {
            source = v.asSource();
        } catch (IllegalArgumentException e) {
            LOG.warnf("%s %s lists buildpacks Rekon cannot read; it provides none until fixed: %s", v.kind(), v.name(), e.getMessage());
            source = new BuildpackSource(v.kind(), v.namespace(), v.name(), List.of());
        }
        return new Cataloged(source, AffectedBuilders.repositoryOf(v.image()), RecheckView.of(v));
    }

}
