package dev.rekon.modules.watch;

import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.webhooks.Subscription;

/**
 * The module Deployments (label {@value ModuleDeployment#MODULE_LABEL}) by the image repositories their
 * containers run, so that a push finds the modules it concerns without listing Deployments: the
 * {@link ModuleDeploymentFacet} of the one Deployment watch per allowed namespace (listed where no watch runs).
 */
@ApplicationScoped
public class ModulePushIndex {

    /** One module Deployment, the repositories it runs, and where its pull secrets are. */
    public record Running(ModuleDeployment deployment, Set<String> repositories, Subscription.PullSecrets pullSecrets) {
    }

    @Inject
    SharedWatches watches;

    @Inject
    ModuleDeploymentFacet facet;

    /** The module Deployments (in allowed namespaces) with a container running this repository. */
    public List<Running> running(String repositoryKey) {
        return views().cachedOrListed(null, Set.of(repositoryKey)).stream().map(Versioned::view).toList();
    }

    /** The module Deployments' facet of the one Deployment watch (the status page reads it too). */
    public FacetViews<Running> views() {
        return watches.of(facet);
    }
}
