package dev.rekon.rollouts.watch;

import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.rollouts.PushReconciler;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.view.PushSubscriber;

/**
 * The ImageDeploys of Rekon's group that follow registry pushes, found by the repositories they follow, so that
 * a push reads only the ImageDeploys it concerns: the {@link PushSubscriberFacet} of the one ImageDeploy watch per
 * allowed namespace (listed where no watch runs), each object made into a small {@link PushSubscriber} once. The
 * index only says which ImageDeploys; {@link PushReconciler} reads each again through the {@link RolloutGateway}
 * before it is planned, so a lagging watch never plans from an old spec or resourceVersion.
 */
@ApplicationScoped
public class ImageDeployPushIndex {

    @Inject
    SharedWatches watches;

    @Inject
    PushSubscriberFacet facet;

    /** The ImageDeploys (in allowed namespaces) with an update policy and a container of this repository. */
    public List<PushSubscriber> following(String repositoryKey) {
        return watches.of(facet).cachedOrListed(null, Set.of(repositoryKey)).stream().map(Versioned::view).toList();
    }
}
