package dev.rekon.rollouts.watch;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.RefusedException;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * What the rollouts resync reads, none of it per object: every ImageDeploy (of each enabled group), every kpack
 * Image and every Deployment labelled {@code app.kubernetes.io/managed-by=rekon}, in the allowed namespaces: one
 * cluster-wide watch per kind when every namespace is allowed, else one per allowed namespace (so per-namespace
 * RoleBindings suffice). These are the very watches the event path, pushes and the status page read
 * ({@link SharedWatches}), so each object is watched and held once. The watches start with the first pass (or
 * event) and keep running, so later passes list only the Images. Where a watch cannot run (no RBAC for watch,
 * or stopped on the 404 its kind answers while a restarted apiserver loads its CRDs, then not tried for 30 s) a
 * pass lists instead, as every other read does; empty only when listing is refused too (no RBAC, CRD missing).
 */
@ApplicationScoped
public class ResyncViews {

    /** How long a pass waits for watches it started to sync: they start in the background, off the event path. */
    static final Duration SYNC_WAIT = Duration.ofSeconds(10);

    @Inject
    SharedWatches watches;

    @Inject
    KpackImageFacet images;

    @Inject
    ImageDeployIndex imageDeploys;

    @Inject
    DeploymentCache deployments;

    /**
     * The ImageDeploys of the group in {@code namespace} (null: every allowed one); empty when they can be neither
     * watched nor listed.
     */
    public Optional<List<ImageDeployView>> imageDeploys(String group, String namespace) {
        return all(imageDeploys.views(group), namespace).or(() -> listed(imageDeploys.views(group), namespace));
    }

    /**
     * The kpack Images as the apiserver holds them now (one list per pass; their watch is started for the event
     * path): their builds are what a pass must not miss when the events were lost, and a watch lags, for seconds
     * while it reconnects after an apiserver restart. The ImageDeploys and Deployments may come from watches: a write reads its Deployment
     * again, a prune its ImageDeploy, and one that a lagging watch hides is the next pass's.
     */
    public Optional<List<KpackImage>> images(String namespace) {
        FacetViews<KpackImage> views = watches.of(images);
        all(views, namespace); // starts the watch the event path reads, when it can run
        return listed(views, namespace);
    }

    public Optional<List<DeploymentView>> deployments(String namespace) {
        return all(deployments.views(), namespace).or(() -> listed(deployments.views(), namespace));
    }

    /** One list of the views in {@code namespace}; empty when the apiserver refuses it (RBAC, CRD missing). */
    private static <V> Optional<List<V>> listed(FacetViews<V> views, String namespace) {
        try {
            return Optional.of(views.listed(namespace).stream().map(Versioned::view).toList());
        } catch (RefusedException refused) {
            // A pass over a namespace it may not list (RBAC, CRD missing) has nothing to compare there, and goes on.
            return Optional.empty();
        }
    }

    private static <V> Optional<List<V>> all(FacetViews<V> views, String namespace) {
        return views.waiting(namespace, null, SYNC_WAIT.toMillis()).map(l -> l.stream().map(Versioned::view).toList());
    }
}
