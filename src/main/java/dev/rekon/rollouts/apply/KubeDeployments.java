package dev.rekon.rollouts.apply;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.FieldManager;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.TreeCalls;
import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.ObjectRef;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.DeploymentCache;
import dev.rekon.rollouts.watch.UnmanagedDeploymentFacet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The Deployments of rollouts on the Kubernetes API: read from the {@link DeploymentCache} where it holds them,
 * else from the apiserver; created, patched (as field manager {@code rekon}, the answer recorded in the cache until
 * the watch delivers it) and deleted, each write guarded by the version the caller read.
 */
@ApplicationScoped
public class KubeDeployments {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    DeploymentCache cache;

    @Inject
    TreeCalls calls;

    @Inject
    SharedWatches watches;

    @Inject
    UnmanagedDeploymentFacet unmanaged;

    Optional<DeploymentView> read(String namespace, String name) {
        Deployment d = KubeErrors.call(ref(namespace, name), "reading Deployment " + namespace + "/" + name,
                () -> client.apps().deployments().inNamespace(namespace).withName(name).get());
        return Optional.ofNullable(d).map(this::view);
    }

    /**
     * The Deployment Rekon does not manage that holds the name, as the one Deployment watch shows it (none when the
     * name is free); read from the apiserver only while that watch has not synced.
     */
    Optional<DeploymentView> readIfTaken(String namespace, String name) {
        var watched = watches.of(unmanaged).cached(namespace, Set.of(name));
        return watched.isPresent() ? watched.get().stream().findFirst().map(Versioned::view) : read(namespace, name);
    }

    Optional<DeploymentView> cachedOrRead(String namespace, String name) {
        Optional<DeploymentView> cached = cache.get(namespace, name);
        return cached.isPresent() ? cached : read(namespace, name);
    }

    Optional<String> labelledFor(String namespace, String imageDeploy) {
        List<Deployment> items = KubeErrors.call("listing Deployments of ImageDeploy " + namespace + "/" + imageDeploy,
                () -> client.apps().deployments().inNamespace(namespace)
                        .withLabel(RolloutNames.IMAGEDEPLOY_LABEL, imageDeploy).list().getItems());
        return items.stream().map(d -> d.getMetadata().getName()).findFirst();
    }

    void create(ObjectNode deployment) {
        Deployment d = mapper.convertValue(deployment, Deployment.class);
        // A plain create, not server-side apply: two racing events would both apply as manager rekon without
        // a conflict, and the later, possibly older, one would win. A create fails with 409 AlreadyExists
        // instead; the event is then planned again against the Deployment that exists, guarded by its version.
        // fabric8 offers a field manager only with server-side apply, so the create goes through its raw API.
        String ns = d.getMetadata().getNamespace();
        String name = d.getMetadata().getName();
        KubeErrors.call(ref(ns, name), "creating Deployment " + ns + "/" + name, () -> client.raw(
                "/apis/apps/v1/namespaces/" + ns + "/deployments?fieldManager=" + FieldManager.NAME, "POST",
                deployment.toString()));
    }

    void patch(String namespace, String name, ObjectNode patch) {
        JsonNode written = KubeErrors.call(ref(namespace, name), "patching Deployment " + namespace + "/" + name,
                () -> calls.strategicMergePatch("/apis/apps/v1/namespaces/" + namespace + "/deployments/" + name,
                        patch.toString()));
        cache.wrote(DeploymentView.fromJson(written));
    }

    /** Deletes the Deployment if it is still the one planned from: preconditions on its uid and resourceVersion. */
    boolean delete(DeploymentView planned) {
        String namespace = planned.namespace();
        String name = planned.name();
        if (planned.uid() == null || planned.resourceVersion() == null) {
            throw new IllegalArgumentException("a delete of Deployment " + namespace + "/" + name
                    + " must be guarded by the uid and resourceVersion it was planned from");
        }
        return KubeErrors.call(ref(namespace, name), "deleting Deployment " + namespace + "/" + name,
                () -> calls.guardedDelete("/apis/apps/v1/namespaces/" + namespace + "/deployments/" + name,
                        planned.uid(), planned.resourceVersion()));
    }

    private DeploymentView view(Deployment d) {
        return DeploymentView.fromJson(mapper.valueToTree(d));
    }

    private static ObjectRef ref(String namespace, String name) {
        return new ObjectRef("apps/v1", "Deployment", namespace, name);
    }
}
