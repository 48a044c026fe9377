package dev.rekon.rollouts;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.SharedWatches;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The ImageDeploys of Rekon's group that follow registry pushes, found by the repositories they follow, so that
 * a push reads only the ImageDeploys it concerns: the {@link PushSubscriberFacet} of the one ImageDeploy watch per
 * allowed namespace (listed where no watch runs), each object made into a small {@link PushSubscriber} once. The
 * index only says which ImageDeploys; each is read again before it is planned, so a lagging watch never plans from an old spec or resourceVersion.
 */
@ApplicationScoped
public class ImageDeployPushIndex {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    SharedWatches watches;

    @Inject
    PushSubscriberFacet facet;

    /** The ImageDeploys (in allowed namespaces) with an update policy and a container of this repository. */
    public List<PushSubscriber> following(String repositoryKey) {
        return watches.of(facet).cachedOrListed(null, Set.of(repositoryKey)).stream().map(Versioned::view).toList();
    }

    /** The ImageDeploy as it is now, or empty when it is gone. */
    public Optional<JsonNode> read(PushSubscriber s) {
        GenericKubernetesResource r = KubeErrors.call("reading " + s.describe(), () -> client
                .genericKubernetesResources(KubeRolloutGateway.imageDeployContext(s.group())).inNamespace(s.namespace())
                .withName(s.name()).get());
        return Optional.ofNullable(r).map(mapper::valueToTree);
    }
}
