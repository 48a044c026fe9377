package dev.rekon.promotions;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.promotions.apply.PromotionGateway;
import dev.rekon.promotions.plan.Approval;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.SecretKeyRef;
import dev.rekon.rollouts.CdEventsConfig;

/**
 * Picks which ImagePromotions an input concerns and hands each, as a {@link PromotionKey}, to the one loop with
 * {@link PromotionReconciler}: an ImagePromotion event or an approval names one; a kpack Image's build concerns the
 * promotions whose source it is; an ImageDeploy in this cluster concerns those listing it in a stage here.
 */
@ApplicationScoped
public class PromotionService {

    /** The reason of the reply to an input no ImagePromotion concerns. */
    static final String NO_PROMOTIONS = "NoPromotions";
    /** The reason of the reply to a status written here that settles no build: left to the ApiServerSource's event. */
    static final String NOT_SETTLED = "NotSettled";
    /** The reason of the reply to a stage's report of a rollout that its cluster's watch delivered and was planned. */
    static final String TAKEN_FROM_WATCH = "TakenFromWatch";

    @Inject
    ReconcileLoop loop;

    @Inject
    PromotionReconciler reconciler;

    @Inject
    PromotionGateway gateway;

    /** This cluster's own environment, as its CDEvents name it (null in tables: unknown). */
    @Inject
    CdEventsConfig cdEvents;

    public Reply changed(String namespace, String name) {
        return loop.reconcile(reconciler, PromotionKey.of(namespace, name));
    }

    public Reply approve(String namespace, String name, Approval approval) {
        return loop.reconcile(reconciler, new PromotionKey(namespace, name, approval));
    }

    /** A kpack Image in {@code namespace} reported a build: the promotions whose source it is. */
    public Reply sourceBuilt(String namespace, String image) {
        return sourceBuilt(namespace, image, null);
    }

    /**
     * The same, from an event that carried the Image at {@code resourceVersion} (null: unknown, Reference mode): each
     * plan takes the source from its watch once the watch shows that version, and reads it until then.
     */
    public Reply sourceBuilt(String namespace, String image, String resourceVersion) {
        List<PromotionKey> keys = gateway.promotions(namespace).stream()
                .filter(p -> image.equals(p.spec().sourceImage())).map(p -> PromotionKey.seen(p, Set.of())).toList();
        if (!keys.isEmpty()) {
            gateway.sourceSeen(namespace, image, resourceVersion);
        }
        return loop.reconcileAll(reconciler, keys, none("kpack Image " + namespace + "/" + image));
    }

    /** An ImageDeploy in this cluster changed: the promotions with a stage here that lists it. */
    public Reply stageChanged(String namespace, String imageDeploy) {
        return stageChanged(namespace, imageDeploy, false);
    }

    /**
     * This process wrote the status of an ImageDeploy here: when it now settles the build it runs (proves or fails
     * it), the promotions with a stage here listing it, planned at once from the watch that holds the write; a
     * rollout still under way is left to the event an ApiServerSource sends of it, as any other change.
     */
    public Reply stageWritten(String namespace, String imageDeploy) {
        if (!gateway.settledHere(namespace, imageDeploy)) {
            return Reply.unchanged(NOT_SETTLED, "ImageDeploy " + namespace + "/" + imageDeploy
                    + " settles no build yet", List.of());
        }
        return stageChanged(namespace, imageDeploy, true);
    }

    /**
     * The promotions with a stage here listing the ImageDeploy; {@code written}: this process wrote the change (its
     * status), so the watch of ImageDeploys here holds it, and no plan reads that stage again for it.
     */
    private Reply stageChanged(String namespace, String imageDeploy, boolean written) {
        List<PromotionKey> keys = gateway.promotions(null).stream().map(p -> {
            Set<String> stages = listing(p, s -> !s.remote(), namespace, imageDeploy);
            return written ? PromotionKey.written(p, stages) : PromotionKey.seen(p, stages);
        }).filter(k -> !k.changedStages().isEmpty()).toList();
        return loop.reconcileAll(reconciler, keys, none("ImageDeploy " + namespace + "/" + imageDeploy));
    }

    /**
     * The watch of a remote stage's cluster, reached through the kubeconfig in {@code cluster} (a Secret of
     * {@code promotionNamespace}), delivered a change of {@code namespace/imageDeploy} that settles a build: the
     * promotions of that namespace with a stage in that cluster listing it, planned from the watch that holds the
     * change (the stage is not read again for it). The stage's CDEvent, when one comes, is a trigger as before.
     */
    public Reply stageSettledThere(String promotionNamespace, SecretKeyRef cluster, String namespace,
            String imageDeploy) {
        List<PromotionKey> keys = gateway.promotions(promotionNamespace).stream().map(p -> PromotionKey.shown(p,
                listing(p, s -> s.remote() && cluster.equals(s.cluster()), namespace, imageDeploy)))
                .filter(k -> !k.changedStages().isEmpty()).toList();
        return loop.reconcileAll(reconciler, keys, none("ImageDeploy " + namespace + "/" + imageDeploy
                + " in the cluster of Secret " + promotionNamespace + "/" + cluster.name()));
    }

    /**
     * A stage reported a rollout of {@code namespace/imageDeploy} (a CDEvent, from whichever cluster): the
     * promotions of any stage, here or remote, that list it; each reads its stages itself before it decides.
     */
    public Reply stageReported(String namespace, String imageDeploy) {
        return stageReported(namespace, imageDeploy, null);
    }

    /**
     * The same from the environment the CDEvent names ({@code subject.content.environment.id}; null: none): a stage
     * the spec places in another environment is not announced as changed, so it is not read again.
     */
    public Reply stageReported(String namespace, String imageDeploy, String environment) {
        return stageReported(namespace, imageDeploy, environment, (p, s) -> false);
    }

    /**
     * The same, leaving out each stage for which {@code taken} holds (its cluster's watch delivered the rollout
     * reported, and it was planned then): answered {@value #TAKEN_FROM_WATCH} when that leaves none it announces.
     */
    public Reply stageReported(String namespace, String imageDeploy, String environment,
            BiPredicate<ImagePromotionView, PromotionStage> taken) {
        String here = cdEvents == null ? null : cdEvents.environment();
        String what = "ImageDeploy " + namespace + "/" + imageDeploy + (environment == null ? ""
                : " in environment " + environment);
        boolean anyTaken = false;
        List<PromotionKey> keys = new ArrayList<>();
        for (ImagePromotionView p : gateway.promotions(null)) {
            Set<String> reported = listing(p, s -> s.reportedFrom(environment, here), namespace, imageDeploy);
            Set<String> left = listing(p, s -> s.reportedFrom(environment, here) && !taken.test(p, s), namespace,
                    imageDeploy);
            anyTaken |= left.size() < reported.size();
            if (!left.isEmpty()) {
                keys.add(PromotionKey.seen(p, left));
            }
        }
        if (keys.isEmpty() && anyTaken) {
            return Reply.unchanged(TAKEN_FROM_WATCH, "the rollout of " + what + " was planned when its cluster's"
                    + " watch delivered it", List.of());
        }
        return loop.reconcileAll(reconciler, keys, none(what));
    }

    /** The names of the promotion's stages (of those {@code where} takes) that list the ImageDeploy. */
    private static Set<String> listing(ImagePromotionView p, Predicate<PromotionStage> where, String namespace,
            String imageDeploy) {
        return p.spec().stages().stream().filter(s -> where.test(s) && lists(p, s, namespace, imageDeploy))
                .map(PromotionStage::name).collect(Collectors.toSet());
    }

    private static boolean lists(ImagePromotionView p, PromotionStage s, String namespace, String imageDeploy) {
        return s.namespaceOr(p.namespace()).equals(namespace) && s.imageDeploys().contains(imageDeploy);
    }

    private static Reply none(String what) {
        return Reply.unchanged(NO_PROMOTIONS, "no ImagePromotion concerns " + what, List.of());
    }
}
