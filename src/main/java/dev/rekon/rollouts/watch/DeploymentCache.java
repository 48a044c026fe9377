package dev.rekon.rollouts.watch;

import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.rollouts.view.DeploymentView;

/**
 * The Deployments Rekon manages (label {@code app.kubernetes.io/managed-by=rekon}), the
 * {@link ManagedDeploymentFacet} of the one Deployment watch, cluster-wide when {@code rekon.namespaces} is {@code *}, else per namespace (started in the background on
 * first use, read directly until it has synced), as views made once per version, so that a rollout plans without reading the Deployment from the
 * apiserver. It only answers for Deployments it holds; any other (one Rekon did not create, or one created a
 * moment ago) is read from the apiserver. This process's own guarded patches stand in until the watch delivers
 * them; a plan made from a view that lags anyway patches guarded by its resourceVersion, gets a 409, and the
 * rollout plans again from a fresh read.
 */
@ApplicationScoped
public class DeploymentCache {

    @Inject
    SharedWatches watches;

    @Inject
    ManagedDeploymentFacet facet;

    /** The managed Deployment as last seen, or as this process last wrote it, if the namespace's watch holds it. */
    public Optional<DeploymentView> get(String namespace, String name) {
        return views().latest(namespace, Set.of(name)).flatMap(found -> found.stream().findFirst());
    }

    /** The managed Deployments' facet of the one Deployment watch. */
    public FacetViews<DeploymentView> views() {
        return watches.of(facet);
    }

    /** Records a patch of this process (as the apiserver answered it), until the watch delivers it. */
    public void wrote(DeploymentView deployment) {
        if (deployment != null) {
            views().wrote(deployment.namespace(), deployment.name(), deployment.resourceVersion(), deployment);
        }
    }
}
