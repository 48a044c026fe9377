package dev.rekon.rollouts;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.FieldManager;
import dev.rekon.cluster.InstalledKinds;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.PatchTargets;
import dev.rekon.core.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The {@link RolloutGateway} on the Kubernetes API: kpack Images read directly, ImageDeploys and managed
 * Deployments from watch caches, writes with field manager {@code rekon}, each guarded by the resourceVersion
 * that was read. Failures are sorted by {@link KubeErrors}.
 */
@ApplicationScoped
public class KubeRolloutGateway implements RolloutGateway {

    @Inject
    KubernetesClient client;

    @Inject
    RolloutConfig config;

    @Inject
    InstalledKinds kinds;

    @Inject
    ObjectMapper mapper;

    @Inject
    ImageDeployIndex index;

    @Inject
    DeploymentCache deployments;

    @Override
    public String imageGroup() {
        return config.imageCrd().group();
    }

    ResourceDefinitionContext imageContext() {
        RolloutConfig.ImageCrd crd = config.imageCrd();
        return new ResourceDefinitionContext.Builder().withGroup(crd.group()).withVersion(crd.version())
                .withPlural(crd.plural()).withKind("Image").withNamespaced(true).build();
    }

    static ResourceDefinitionContext imageDeployContext(String group) {
        return new ResourceDefinitionContext.Builder().withGroup(group)
                .withVersion("v1alpha1").withPlural("imagedeploys").withKind("ImageDeploy").withNamespaced(true)
                .build();
    }

    @Override
    public List<String> imageDeployGroups() {
        return configuredImageDeployGroups().stream().filter(g -> kinds.installed(imageDeployKind(g))).toList();
    }

    List<String> configuredImageDeployGroups() {
        return config.kpushImageDeploys() ? List.of(GROUP, KPUSH_GROUP) : List.of(GROUP);
    }

    @Override
    public Optional<String> imageDeployNotInstalled(String group) {
        return configuredImageDeployGroups().contains(group)
                ? kinds.notInstalled("ImageDeploy of " + group, List.of(imageDeployKind(group))) : Optional.empty();
    }

    @Override
    public Optional<String> imageNotInstalled() {
        return kinds.notInstalled("a kpack Image event", List.of(kinds.kpackImage()));
    }

    private static InstalledKinds.Kind imageDeployKind(String group) {
        return GROUP.equals(group) ? InstalledKinds.IMAGE_DEPLOY : InstalledKinds.KPUSH_IMAGE_DEPLOY;
    }

    @Override
    public Optional<KpackImage> image(String namespace, String name) {
        GenericKubernetesResource r = KubeErrors.call(new ObjectRef(imageGroup() + "/" + config.imageCrd().version(),
                "Image", namespace, name), "reading kpack Image " + namespace + "/" + name,
                () -> client.genericKubernetesResources(imageContext()).inNamespace(namespace).withName(name).get());
        return Optional.ofNullable(r).map(x -> KpackImage.fromJson(tree(x)));
    }

    @Override
    public Optional<ImageDeployView> imageDeploy(String group, String namespace, String name) {
        return readImageDeploy(group, namespace, name).map(ImageDeployView::fromJson);
    }

    @Override
    public Optional<Followed> imageDeployFollowing(String group, String namespace, String name) {
        return readImageDeploy(group, namespace, name).map(t -> new Followed(ImageDeployView.fromJson(t), t.path("spec")));
    }

    private Optional<JsonNode> readImageDeploy(String group, String namespace, String name) {
        GenericKubernetesResource r = KubeErrors.call(new ObjectRef(group + "/v1alpha1", "ImageDeploy", namespace, name),
                "reading ImageDeploy " + namespace + "/" + name,
                () -> client.genericKubernetesResources(imageDeployContext(group)).inNamespace(namespace)
                        .withName(name).get());
        return Optional.ofNullable(r).map(this::tree);
    }

    /**
     * Every ImageDeploy of the enabled groups in the namespace that references the kpack Image, as its watch
     * last saw it (writes guarded by that version catch one that is behind). Without a watch, or when it knows
     * none (an ImageDeploy created a moment ago may not have reached it yet), the namespace is listed.
     */
    @Override
    public List<ImageDeployView> imageDeploysReferencing(String namespace, String imageName) {
        List<ImageDeployView> out = new ArrayList<>();
        for (String group : imageDeployGroups()) {
            out.addAll(index.referencing(group, namespace, imageName).orElse(List.of()));
        }
        return out.isEmpty() ? listReferencing(namespace, imageName) : out;
    }

    private List<ImageDeployView> listReferencing(String namespace, String imageName) {
        List<ImageDeployView> out = new ArrayList<>();
        for (String group : imageDeployGroups()) {
            List<GenericKubernetesResource> items = KubeErrors.call("listing ImageDeploys in " + namespace,
                    () -> client.genericKubernetesResources(imageDeployContext(group)).inNamespace(namespace).list()
                            .getItems());
            for (GenericKubernetesResource item : items) {
                ImageDeployView v = ImageDeployView.fromJson(tree(item));
                if (v.references(imageName)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    @Override
    public Optional<DeploymentView> deployment(String namespace, String name) {
        Deployment d = KubeErrors.call(deploymentRef(namespace, name), "reading Deployment " + namespace + "/" + name,
                () -> client.apps().deployments().inNamespace(namespace).withName(name).get());
        return Optional.ofNullable(d).map(x -> DeploymentView.fromJson(tree(x)));
    }

    /** A Deployment Rekon manages as its watch last saw it, else read from the apiserver. */
    @Override
    public Optional<DeploymentView> deploymentCachedOrRead(String namespace, String name) {
        Optional<DeploymentView> cached = deployments.get(namespace, name);
        return cached.isPresent() ? cached : deployment(namespace, name);
    }

    /** The name of the Deployment Rekon created for the ImageDeploy, found by its label. */
    @Override
    public Optional<String> deploymentLabelledFor(String namespace, String imageDeploy) {
        List<Deployment> items = KubeErrors.call("listing Deployments of ImageDeploy " + namespace + "/" + imageDeploy,
                () -> client.apps().deployments().inNamespace(namespace)
                        .withLabel(RolloutPlanner.IMAGEDEPLOY_LABEL, imageDeploy).list().getItems());
        return items.stream().map(d -> d.getMetadata().getName()).findFirst();
    }

    @Override
    public void createDeployment(ObjectNode deployment) {
        Deployment d = mapper.convertValue(deployment, Deployment.class);
        // A plain create, not server-side apply: two racing events would both apply as manager rekon without
        // a conflict, and the later, possibly older, one would win. A create fails with 409 AlreadyExists
        // instead; the event is then planned again against the Deployment that exists, guarded by its version.
        // fabric8 offers a field manager only with server-side apply, so the create goes through its raw API.
        String ns = d.getMetadata().getNamespace();
        String name = d.getMetadata().getName();
        KubeErrors.call(deploymentRef(ns, name), "creating Deployment " + ns + "/" + name, () -> client.raw(
                "/apis/apps/v1/namespaces/" + ns + "/deployments?fieldManager=" + FieldManager.NAME, "POST",
                deployment.toString()));
    }

    /** Patches the Deployment; what was written is remembered until the watch delivers it. */
    @Override
    public void patchDeployment(String namespace, String name, ObjectNode patch) {
        Deployment written = KubeErrors.call(deploymentRef(namespace, name), "patching Deployment " + namespace + "/" + name,
                () -> client.apps().deployments().inNamespace(namespace)
                        .resource(PatchTargets.deployment(namespace, name))
                        .patch(new PatchContext.Builder().withPatchType(PatchType.STRATEGIC_MERGE)
                                .withFieldManager(FieldManager.NAME).build(), patch.toString()));
        deployments.wrote(written == null ? null : DeploymentView.fromJson(tree(written)));
    }

    /** Deletes the Deployment, guarded by {@code resourceVersion} when one is given (a delete precondition). */
    @Override
    public boolean deleteDeployment(String namespace, String name, String resourceVersion) {
        var deployment = client.apps().deployments().inNamespace(namespace).withName(name);
        return KubeErrors.call(deploymentRef(namespace, name), "deleting Deployment " + namespace + "/" + name,
                () -> !(resourceVersion == null ? deployment.delete()
                        : deployment.lockResourceVersion(resourceVersion).delete()).isEmpty());
    }

    private static ObjectRef deploymentRef(String namespace, String name) {
        return new ObjectRef("apps/v1", "Deployment", namespace, name);
    }

    /** Replaces the status subresource, guarded by the resourceVersion the plan was made from. */
    @Override
    public void writeStatus(ImageDeployView idp, ObjectNode status) {
        String group = idp.group();
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(idp.apiVersion());
        r.setKind(idp.kind());
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(idp.name())
                .withNamespace(idp.namespace()).withResourceVersion(idp.resourceVersion()).build());
        r.setAdditionalProperty("spec", mapper.convertValue(
                mapper.createObjectNode().set("deployment", idp.deployment()), java.util.Map.class));
        r.setAdditionalProperty("status", mapper.convertValue(status, java.util.Map.class));
        GenericKubernetesResource written = KubeErrors.call(idp.ref(), "updating the status of ImageDeploy " + idp.namespace()
                + "/" + idp.name(), () -> client.genericKubernetesResources(imageDeployContext(group))
                        .inNamespace(idp.namespace()).resource(r).updateStatus());
        index.wrote(written == null ? null : ImageDeployView.fromJson(tree(written)));
    }


    JsonNode tree(Object o) {
        return mapper.valueToTree(o);
    }
}
