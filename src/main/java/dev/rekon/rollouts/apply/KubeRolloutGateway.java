package dev.rekon.rollouts.apply;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.cluster.ConcurrentReads;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.ObjectRef;
import dev.rekon.rollouts.RolloutConfig;
import dev.rekon.rollouts.plan.ImagePatch;
import dev.rekon.rollouts.plan.NewDeployment;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployStatus;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;
import dev.rekon.rollouts.view.RolloutNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The {@link RolloutGateway} on the Kubernetes API. It decides which kinds rollouts handle here (the configured
 * kpack Image kind, the ImageDeploy groups enabled and served) and reads kpack Images directly; ImageDeploys go
 * through {@link KubeImageDeploys}, Deployments through {@link KubeDeployments}. Failures are sorted by
 * {@link KubeErrors}.
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
    KubeImageDeploys imageDeploys;

    @Inject
    KubeDeployments deployments;

    @Inject
    dev.rekon.rollouts.watch.ImageDeployIndex imageDeployIndex;

    @Inject
    dev.rekon.cluster.watch.SharedWatches watches;

    @Inject
    dev.rekon.rollouts.watch.KpackImageFacet kpackImages;

    @Override
    public String imageGroup() {
        return config.imageCrd().group();
    }

    @Override
    public List<String> imageDeployGroups() {
        return configuredImageDeployGroups().stream().filter(g -> kinds.installed(imageDeployKind(g))).toList();
    }

    private List<String> configuredImageDeployGroups() {
        return config.kpushImageDeploys() ? List.of(RolloutNames.GROUP, RolloutNames.KPUSH_GROUP)
                : List.of(RolloutNames.GROUP);
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
        return RolloutNames.GROUP.equals(group) ? InstalledKinds.IMAGE_DEPLOY : InstalledKinds.KPUSH_IMAGE_DEPLOY;
    }

    @Override
    public Optional<KpackImage> image(String namespace, String name) {
        return imageSent(namespace, name).get();
    }

    @Override
    public Supplier<Optional<KpackImage>> imageSent(String namespace, String name) {
        RolloutConfig.ImageCrd crd = config.imageCrd();
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(crd.group())
                .withVersion(crd.version()).withPlural(crd.plural()).withKind("Image").withNamespaced(true).build();
        ObjectRef ref = new ObjectRef(crd.group() + "/" + crd.version(), "Image", namespace, name);
        ConcurrentReads.Pending<GenericKubernetesResource> read = ConcurrentReads.get(client, context, ref,
                GenericKubernetesResource.class, "reading kpack Image " + namespace + "/" + name,
                () -> client.genericKubernetesResources(context).inNamespace(namespace).withName(name).get());
        return () -> Optional.ofNullable(read.join()).map(x -> KpackImage.fromJson(mapper.valueToTree(x)));
    }

    @Override
    public Optional<KpackImage> promotedImage(String namespace, String name) {
        if (!kinds.installed(InstalledKinds.PROMOTED_IMAGE)) {
            return Optional.empty();
        }
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(RolloutNames.GROUP)
                .withVersion("v1alpha1").withPlural(RolloutNames.PROMOTED_IMAGE_PLURAL)
                .withKind(RolloutNames.PROMOTED_IMAGE_KIND).withNamespaced(true).build();
        GenericKubernetesResource r = KubeErrors.call(new ObjectRef(RolloutNames.GROUP + "/v1alpha1",
                RolloutNames.PROMOTED_IMAGE_KIND, namespace, name), "reading PromotedImage " + namespace + "/" + name,
                () -> client.genericKubernetesResources(context).inNamespace(namespace).withName(name).get());
        return Optional.ofNullable(r).map(x -> KpackImage.fromJson(mapper.valueToTree(x)));
    }

    @Override
    public List<ImageDeployView> imageDeploysFollowingPromoted(String namespace, String name) {
        return imageDeploys.following(imageDeployGroups(), RolloutNames.PROMOTED_IMAGE_KIND, namespace, name);
    }

    @Override
    public Optional<ImageDeployView> imageDeploy(String group, String namespace, String name) {
        return imageDeploys.read(group, namespace, name).map(ImageDeployView::fromJson);
    }

    @Override
    public Optional<ImageDeployView> imageDeployWatched(String group, String namespace, String name) {
        return imageDeployIndex.seen(group, namespace, name);
    }

    /** kpack Images only: a PromotedImage is watched only while the page shows followers, so it is read. */
    @Override
    public Optional<KpackImage> followedSeen(ImageDeployView idp, String name) {
        if (idp.followsPromotedImages()) {
            return Optional.empty();
        }
        return watches.of(kpackImages).cached(idp.namespace(), java.util.Set.of(name))
                .flatMap(found -> found.stream().map(dev.rekon.cluster.Versioned::view)
                        .filter(i -> name.equals(i.name())).findFirst());
    }

    @Override
    public Optional<Followed> imageDeployFollowing(String group, String namespace, String name) {
        return imageDeploys.read(group, namespace, name)
                .map(t -> new Followed(ImageDeployView.fromJson(t), t.path("spec")));
    }

    @Override
    public List<ImageDeployView> imageDeploysReferencing(String namespace, String imageName) {
        return imageDeploys.referencing(imageDeployGroups(), namespace, imageName);
    }

    @Override
    public Optional<String> writeStatus(ImageDeployView idp, ImageDeployStatus status) {
        var patch = ImageDeployStatusBody.patch(idp.status(), status);
        return patch.isEmpty() ? Optional.empty() : Optional.ofNullable(imageDeploys.writeStatus(idp, patch));
    }

    @Override
    public Optional<DeploymentView> deployment(String namespace, String name) {
        return deployments.read(namespace, name);
    }

    @Override
    public Optional<DeploymentView> deploymentIfTaken(String namespace, String name) {
        return deployments.readIfTaken(namespace, name);
    }

    @Override
    public Optional<DeploymentView> deploymentCachedOrRead(String namespace, String name) {
        return deployments.cachedOrRead(namespace, name);
    }

    @Override
    public Optional<String> deploymentLabelledFor(String namespace, String imageDeploy) {
        return deployments.labelledFor(namespace, imageDeploy);
    }

    @Override
    public void createDeployment(NewDeployment deployment) {
        deployments.create(NewDeploymentBody.of(deployment));
    }

    @Override
    public void patchDeployment(String namespace, String name, ImagePatch patch) {
        deployments.patch(namespace, name, ImagePatchBody.of(patch));
    }

    @Override
    public boolean deleteDeployment(DeploymentView planned) {
        return deployments.delete(planned);
    }
}
