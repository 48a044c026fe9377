package dev.rekon.promotions.apply;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.ConflictException;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RekonConfig;
import dev.rekon.promotions.plan.PromotedImageWrite;
import dev.rekon.promotions.plan.PromotionEvent;
import dev.rekon.promotions.plan.VerifyJobWrite;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionNames;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.SecretKeyRef;
import dev.rekon.promotions.view.StageImageDeploy;
import dev.rekon.promotions.view.StageView;
import dev.rekon.promotions.watch.ImagePromotionFacet;
import dev.rekon.promotions.watch.SourceImageFacet;
import dev.rekon.rollouts.apply.RolloutGateway;
import dev.rekon.rollouts.view.KpackImage;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The {@link PromotionGateway} on the Kubernetes API: ImagePromotions and the source kpack Image in this cluster,
 * stages through {@link KubeStageReader} and the client {@link StageClients} gives each. PromotedImages are created
 * with Rekon's labels, then their status replaced guarded by the version read; failures are sorted by
 * {@link KubeErrors}.
 */
@ApplicationScoped
public class KubePromotionGateway implements PromotionGateway {

    @Inject
    EventRecorder events;

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    RolloutGateway rollouts;

    @Inject
    KubeStageReader stages;

    @Inject
    StageClients clients;

    @Inject
    RekonConfig config;

    @Inject
    SharedWatches watches;

    @Inject
    ImagePromotionFacet promotionFacet;

    @Inject
    SourceImageFacet sourceFacet;

    /**
     * When the current attempt of each promotion namespace began reading its stages ({@link System#nanoTime}): a
     * write may use a client only if a read of its Secret gave it since. By namespace, not promotion, since a verify
     * Job's write names no promotion: another promotion's later start only makes a write read the Secret again.
     */
    private final Map<String, Long> attempts = new ConcurrentHashMap<>();

    @Override
    public Optional<ImagePromotionView> promotion(String namespace, String name) {
        GenericKubernetesResource r = KubeErrors.call(PromotionNames.promotion(namespace, name),
                "reading ImagePromotion " + namespace + "/" + name, () -> client
                        .genericKubernetesResources(PromotionResources.PROMOTIONS).inNamespace(namespace).withName(name)
                        .get());
        return Optional.ofNullable(r).map(x -> ImagePromotionView.fromJson(mapper.valueToTree(x)));
    }

    /**
     * From the one watch of ImagePromotions (listed where it has not synced), with this process's own status writes
     * in place of what it shows until it shows them: a rollout's event lists nothing.
     */
    @Override
    public List<ImagePromotionView> promotions(String namespace) {
        NamespacePolicy policy = config.namespacePolicy();
        return watches.of(promotionFacet).latestOrListed(namespace, null).stream()
                .filter(p -> policy.allows(p.namespace())).toList();
    }

    @Override
    public Optional<KpackImage> sourceImage(String namespace, String name) {
        return name == null ? Optional.empty() : rollouts.image(namespace, name);
    }

    @Override
    public Optional<KpackImage> sourceImageWatched(String namespace, String name) {
        return name == null ? Optional.empty() : watches.of(sourceFacet).latest(namespace, Set.of(name))
                .flatMap(found -> found.stream().filter(i -> name.equals(i.name())).findFirst());
    }

    @Override
    public void sourceSeen(String namespace, String name, String resourceVersion) {
        watches.of(sourceFacet).seen(namespace, name, resourceVersion);
    }

    @Override
    public Supplier<Optional<KpackImage>> sourceImageSent(String namespace, String name) {
        return name == null ? Optional::empty : rollouts.imageSent(namespace, name);
    }

    @Override
    public StageView stage(ImagePromotionView promotion, PromotionStage stage, String followedName, Build current) {
        return stages.read(promotion, stage, followedName, current);
    }

    @Override
    public List<Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads) {
        return stages(promotion, reads, false, null);
    }

    @Override
    public List<Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads, boolean fromWatches) {
        return stages(promotion, reads, fromWatches, null);
    }

    @Override
    public List<Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads, boolean fromWatches,
            Set<String> secretsRead) {
        attempts.put(promotion.namespace(), System.nanoTime());
        return stages.readAll(promotion, reads, fromWatches, secretsRead);
    }

    @Override
    public List<Supplier<StageView>> stagesAgain(ImagePromotionView promotion, List<StageRead> reads) {
        return stages.readAgain(promotion, reads);
    }

    @Override
    public void writePromotedImage(PromotedImageWrite w) {
        KubernetesClient stage = reach(w.promotion().split("/")[0], w.stage(), w.cluster());
        String version = w.resourceVersion();
        if (version == null) {
            GenericKubernetesResource created = KubeErrors.call(ref(w), "creating " + ref(w), () -> stage
                    .genericKubernetesResources(PromotionResources.PROMOTED).inNamespace(w.namespace())
                    .resource(PromotionBodies.newPromotedImage(w)).create());
            version = created.getMetadata().getResourceVersion();
        }
        GenericKubernetesResource body = PromotionBodies.promotedImage(w);
        body.getMetadata().setResourceVersion(version);
        body.setAdditionalProperty("status", mapper.convertValue(w.status(), Map.class));
        GenericKubernetesResource written = KubeErrors.call(ref(w), "writing the status of " + ref(w), () -> stage
                .genericKubernetesResources(PromotionResources.PROMOTED).inNamespace(w.namespace()).resource(body)
                .updateStatus());
        if (written != null) {
            clients.watches(stage).ifPresent(watched -> watched.wrote(PromotedImageView.fromJson(mapper.valueToTree(
                    written))));
        }
    }

    @Override
    public void createVerifyJob(VerifyJobWrite w) {
        KubernetesClient stage = reach(w.promotionNamespace(), w.stage(), w.cluster());
        try {
            KubeErrors.call(new ObjectRef("batch/v1", "Job", w.namespace(), w.name()), "creating verify Job "
                    + w.namespace() + "/" + w.name(), () -> stage.resource(PromotionBodies.verifyJob(w, mapper)).create());
        } catch (ConflictException alreadyThere) {
            // The Job of this build exists: started by an earlier attempt, its result is read next time.
        }
    }

    @Override
    public void writeStatus(ImagePromotionView p, PromotionStatus status) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(PromotionNames.API_VERSION);
        r.setKind(PromotionNames.PROMOTION_KIND);
        r.setMetadata(new ObjectMetaBuilder().withName(p.name()).withNamespace(p.namespace())
                .withResourceVersion(p.resourceVersion()).build());
        r.setAdditionalProperty("status", mapper.convertValue(status, Map.class));
        GenericKubernetesResource answered = KubeErrors.call(p.ref(), "writing the status of ImagePromotion "
                + p.namespace() + "/" + p.name(), () -> client.genericKubernetesResources(PromotionResources.PROMOTIONS)
                        .inNamespace(p.namespace()).resource(r).updateStatus());
        if (answered != null) {
            ImagePromotionView view = ImagePromotionView.fromJson(mapper.valueToTree(answered));
            watches.of(promotionFacet).wrote(view.namespace(), view.name(), view.resourceVersion(), view);
        }
    }

    /**
     * The client of the stage a write goes to: the one its stage was just read with for the plan, when a read of
     * its Secret in this attempt gave it (so the write goes where the plan read, with no second read of the Secret).
     * Otherwise (a trigger planned the stage from its watches, the Secret unread) the Secret is read now: a client
     * other than the one the plan read with, or a Secret no longer usable, is a lost race, planned again.
     */
    private KubernetesClient reach(String promotionNamespace, String stageName, SecretKeyRef cluster) {
        if (cluster == null) {
            return client;
        }
        Long started = attempts.get(promotionNamespace);
        Optional<KubernetesClient> confirmed = started == null ? Optional.empty()
                : clients.confirmedSince(promotionNamespace, cluster, started);
        if (confirmed.isPresent()) {
            return confirmed.get();
        }
        KubernetesClient planned = clients.lastReached(promotionNamespace, cluster).orElse(null);
        PromotionStage stage = new PromotionStage(stageName, cluster, null, null, List.of(), null, null, null, null);
        StageAccess access = clients.of(promotionNamespace, stage);
        if (access instanceof StageAccess.Refused r) {
            throw new ConflictException(null, "stage " + stageName + " changed since it was read: " + r.message(), null);
        }
        KubernetesClient now = ((StageAccess.Reached) access).client();
        if (planned != null && planned != now) {
            throw new ConflictException(null, "stage " + stageName + "'s kubeconfig Secret changed since the stage was"
                    + " read", null);
        }
        return now;
    }

    private static ObjectRef ref(PromotedImageWrite w) {
        return PromotionNames.promoted(w.namespace(), w.name());
    }

    @Override
    public boolean settledHere(String namespace, String imageDeploy) {
        return stages.here(namespace, imageDeploy).map(StageImageDeploy::settled).orElse(true);
    }

    @Override
    public void tell(ImagePromotionView promotion, List<PromotionEvent> told) {
        for (PromotionEvent e : told) {
            if (e.warning()) {
                events.warning(promotion.ref(), e.reason(), e.message());
            } else {
                events.normal(promotion.ref(), e.reason(), e.message());
            }
        }
    }
}
