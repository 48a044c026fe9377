package dev.rekon.buildpacks.apply;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.buildpacks.catalog.KpackFacets;
import dev.rekon.buildpacks.plan.KpackStatus;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.TreeCalls;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.registry.Credential;
import dev.rekon.registry.DockerConfig;
import dev.rekon.registry.ImageReference;
import dev.rekon.registry.RegistryClient;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The {@link BuildpackGateway} on the Kubernetes API and the registries: reads kpack Buildpacks, ClusterBuildpacks,
 * Builders and ClusterBuilders, pull credentials from a ServiceAccount's
 * imagePullSecrets, buildpackage images from registries, and merge-patches status subresources with field manager
 * {@code rekon}. Transient failures (API server or registry) become {@link TransientFailureException}; permanent
 * registry failures become an {@link ImageRead}.
 */
@ApplicationScoped
public class KubeBuildpackGateway implements BuildpackGateway {

    @Inject
    KubernetesClient client;

    @Inject
    RegistryClient registry;

    @Inject
    ObjectMapper mapper;

    @Inject
    TreeCalls calls;

    @Inject
    dev.rekon.core.RekonConfig rekon;

    /** The kpack kind as the generic client names it. */
    public static ResourceDefinitionContext context(String kind) {
        return new ResourceDefinitionContext.Builder().withGroup("kpack.io").withVersion("v1alpha2")
                .withPlural(kind.toLowerCase(java.util.Locale.ROOT) + "s").withKind(kind).withNamespaced(KpackFacets.namespaced(kind)).build();
    }

    @Override
    public Optional<Versioned<BuildpackView>> buildpack(String kind, String namespace, String name) {
        return get(kind, namespace, name).map(j -> Versioned.of(j, BuildpackView::of));
    }

    @Override
    public Optional<Versioned<BuilderView>> builder(String kind, String namespace, String name) {
        return get(kind, namespace, name).map(j -> Versioned.of(j, BuilderView::of));
    }

    private Optional<JsonNode> get(String kind, String namespace, String name) {
        GenericKubernetesResource r = KubeErrors.call("reading " + kind + " " + name, () -> namespace == null
                ? client.genericKubernetesResources(context(kind)).withName(name).get()
                : client.genericKubernetesResources(context(kind)).inNamespace(namespace).withName(name).get());
        return Optional.ofNullable(r).map(x -> (JsonNode) mapper.valueToTree(x));
    }

    /** All objects of a kind: in {@code namespace}, or everywhere when it is null. */
    public List<JsonNode> list(String kind, String namespace) {
        var op = client.genericKubernetesResources(context(kind));
        List<GenericKubernetesResource> items = KubeErrors.call("listing " + kind + "s", () -> namespace != null
                ? op.inNamespace(namespace).list().getItems()
                : !Boolean.TRUE.equals(context(kind).isNamespaceScoped()) ? op.list().getItems()
                : rekon.namespacePolicy().across(ns -> op.inNamespace(ns).list().getItems(),
                        () -> op.inAnyNamespace().list().getItems()));
        return items.stream().map(x -> (JsonNode) mapper.valueToTree(x)).toList();
    }

    @Override
    public String patchStatus(ObjectRef target, KpackStatus.Patch statusPatch, String resourceVersion) {
        ResourceDefinitionContext kind = context(target.kind());
        String path = TreeCalls.path(kind.getGroup() + "/" + kind.getVersion(), kind.getPlural(), target.namespace(),
                target.name());
        return calls.mergePatch(target, "writing the status of " + target, path + "/status",
                KpackStatusBody.of(statusPatch, null), resourceVersion).path("metadata").path("resourceVersion")
                .asText(null);
    }

    @Override
    public ImageRead readBuildpackage(String image, String saNamespace, String saName) {
        return fromRegistry(image, () -> pullSecrets(saNamespace, saName), saNamespace, saName,
                (ref, credential) -> new ImageRead.Found(registry.readImage(ref, credential)), ImageRead.Unreadable::new);
    }

    @Override
    public ImageHead headDigest(String image, Optional<DockerConfig> creds, String saNamespace, String saName) {
        return fromRegistry(image, () -> creds, saNamespace, saName,
                (ref, credential) -> new ImageHead.Digest(registry.readDigest(ref, credential)), ImageHead.Unreadable::new);
    }

    /** A registry request for the image; permanent failures become {@code unreadable}, transient ones throw. */
    private <T> T fromRegistry(String image, Supplier<Optional<DockerConfig>> pullSecrets, String saNamespace,
            String saName, BiFunction<ImageReference, Optional<Credential>, T> request, BiFunction<String, String, T> unreadable) {
        ImageReference ref;
        try {
            ref = ImageReference.parse(image);
        } catch (IllegalArgumentException e) {
            return unreadable.apply("InvalidImageReference", e.getMessage());
        }
        Optional<DockerConfig> creds = pullSecrets.get();
        if (creds.isEmpty()) {
            return unreadable.apply("ServiceAccountNotFound", "service account " + saNamespace + "/" + saName
                    + " does not exist; create it with the imagePullSecrets for " + ref.registry());
        }
        try {
            return request.apply(ref, creds.get().forRegistry(ref.registry()));
        } catch (RefusedException e) {
            // An unreadable image is the Buildpack's status (its reason and fix), not a rejected event.
            return unreadable.apply(e.reason(), e.getMessage());
        }
    }

    @Override
    public Optional<DockerConfig> pullSecrets(String namespace, String name) {
        if (name == null || namespace == null) {
            return Optional.of(DockerConfig.empty());
        }
        ServiceAccount sa = KubeErrors.call("reading service account " + namespace + "/" + name,
                () -> client.serviceAccounts().inNamespace(namespace).withName(name).get());
        if (sa == null) {
            return Optional.empty();
        }
        DockerConfig all = DockerConfig.empty();
        for (LocalObjectReference ref : sa.getImagePullSecrets()) {
            Secret s = KubeErrors.call("reading secret " + namespace + "/" + ref.getName(),
                    () -> client.secrets().inNamespace(namespace).withName(ref.getName()).get());
            all = all.and(DockerConfig.ofSecretData(s == null ? null : s.getData()));
        }
        return Optional.of(all);
    }
}
