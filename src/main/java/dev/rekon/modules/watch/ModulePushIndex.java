package dev.rekon.modules.watch;

import java.util.List;
import java.util.Optional;
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

    /**
     * One module Deployment, the repositories it runs, and where its pull secrets are; {@code installed} when the
     * module lifecycle installed it from the module's manifest (label {@code app.kubernetes.io/managed-by=rekon}),
     * which the image swap leaves alone.
     */
    public record Running(ModuleDeployment deployment, Set<String> repositories, Subscription.PullSecrets pullSecrets,
            boolean installed) {
    }

    @Inject
    SharedWatches watches;

    @Inject
    ModuleDeploymentFacet facet;

    /** The module Deployments (in allowed namespaces) with a container running this repository. */
    public List<Running> running(String repositoryKey) {
        return views().cachedOrListed(null, Set.of(repositoryKey)).stream().map(Versioned::view).toList();
    }

    /**
     * The Deployments the image swap of one module updates (those the lifecycle installed left out), when the watch
     * of every allowed namespace has synced; empty while one has not, and the caller lists them itself.
     */
    public Optional<List<ModuleDeployment>> swapped(String module) {
        return views().latestWithUnseen(null, Set.of(moduleKey(module)))
                .map(found -> found.stream().map(Running::deployment).toList());
    }

    /**
     * The watched module Deployments, each this process wrote since in its place until the watch delivers it, so
     * that a view read right after a write says what was written. It adds none: Rekon only patches them.
     */
    public List<ModuleDeployment> withWrites(List<ModuleDeployment> watched) {
        return watched.stream().map(d -> views().writtenAfter(d.ref().namespace(), d.ref().name(), d.resourceVersion())
                .map(Running::deployment).orElse(d)).toList();
    }

    /**
     * Records a patch of this process (as the apiserver answered it), until the watch delivers it: so that a watch
     * that lags never answers older than what Rekon just wrote.
     */
    public void wrote(Running deployment) {
        ModuleDeployment d = deployment.deployment();
        views().wrote(d.ref().namespace(), d.ref().name(), d.resourceVersion(), deployment);
    }

    /** The index key of the Deployments the image swap of a module updates (no repository has a {@code =}). */
    static String moduleKey(String module) {
        return "module=" + module;
    }

    /** The module Deployments' facet of the one Deployment watch (the status page reads it too). */
    public FacetViews<Running> views() {
        return watches.of(facet);
    }
}
