package dev.rekon.promotions.apply;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.rekon.promotions.plan.PromotedImageWrite;
import dev.rekon.promotions.plan.PromotionEvent;
import dev.rekon.promotions.plan.VerifyJobWrite;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.StageView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * All I/O of promotions, in this cluster and in the stages' clusters. Reads answer empty for what does not exist;
 * failures are sorted at this edge: {@link dev.rekon.core.ConflictException} (a lost race, planned again),
 * {@link dev.rekon.core.RefusedException} (rejected, naming the object), any other
 * {@link dev.rekon.core.TransientFailureException} (503: an unreachable stage included). Every write is guarded by
 * the resourceVersion the plan was made from.
 */
public interface PromotionGateway {

    Optional<ImagePromotionView> promotion(String namespace, String name);

    /** The ImagePromotions of a namespace (null: of every namespace Rekon may act in). */
    List<ImagePromotionView> promotions(String namespace);

    /** The source kpack Image in the promotion's namespace. */
    Optional<KpackImage> sourceImage(String namespace, String name);

    /** The same read, sent now and taken when the supplier is asked, so that it goes out with the stages' reads. */
    default Supplier<Optional<KpackImage>> sourceImageSent(String namespace, String name) {
        return () -> sourceImage(namespace, name);
    }

    /**
     * The source Image as its watch shows it, for a trigger: empty when the watch cannot tell (not synced yet, not
     * holding it, or behind the version an Image event announced, {@link #sourceSeen}); then it is read.
     */
    default Optional<KpackImage> sourceImageWatched(String namespace, String name) {
        return Optional.empty();
    }

    /**
     * An Image event announced the source at {@code resourceVersion} (null: a version unknown): its watch is not taken
     * until it shows that version (an unknown one: for a few seconds).
     */
    default void sourceSeen(String namespace, String name, String resourceVersion) {
    }

    /**
     * Whether the ImageDeploy in this cluster, as rollouts' watch holds it (with this process's own status writes),
     * settles the build it runs: proves it or fails it ({@link dev.rekon.promotions.view.StageImageDeploy#settled});
     * true when the watch does not hold it.
     */
    default boolean settledHere(String namespace, String imageDeploy) {
        return true;
    }

    /**
     * One stage as it is now: its PromotedImage, the listed ImageDeploys (with Ready and RolledOut), the verify Job
     * of {@code current} (the stage's build, null: none); a view naming the problem when the stage's Secret or
     * kubeconfig cannot be used.
     */
    StageView stage(ImagePromotionView promotion, PromotionStage stage, String followedName, Build current);

    /** What a plan reads of one stage: the stage, the name its ImageDeploys follow, the build it holds now. */
    record StageRead(PromotionStage stage, String followedName, Build current) {
    }

    /**
     * The stages in order, each view taken when the plan's walk reaches it (a stage past one that stops the walk is
     * never taken, nor does its failure count); a gateway may read them all at once.
     */
    default List<Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads) {
        return reads.stream().map(r -> (Supplier<StageView>) () -> stage(promotion, r.stage(), r.followedName(),
                r.current())).toList();
    }

    /**
     * The same, for a trigger (a rollout's event, a stage's CDEvent), each stage as its watch shows it with this
     * process's own writes where the watch holds what the plan reads, without a call to the stage; read from the
     * stage otherwise. The stage's Secret is still read, so that a rotated kubeconfig is never planned from the
     * old cluster's watch.
     */
    default List<Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads,
            boolean fromWatches) {
        return stages(promotion, reads);
    }

    /**
     * The same, reading the kubeconfig Secret only of the remote stages in {@code secretsRead} (those the trigger's
     * plan may write) and of any stage the watches do not hold whole; another is planned from the watches of the
     * client its Secret last gave, and a write to it reads its Secret first.
     */
    default List<Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads, boolean fromWatches,
            java.util.Set<String> secretsRead) {
        return stages(promotion, reads, fromWatches);
    }

    /**
     * A trigger's second look at some stages, a moment after its first in the same attempt: read as they are now,
     * each remote one through the client its Secret gave that first look (the Secret is not read again; it is when no
     * client is kept).
     */
    default List<Supplier<StageView>> stagesAgain(ImagePromotionView promotion, List<StageRead> reads) {
        return stages(promotion, reads, false);
    }

    /** Creates the stage's PromotedImage (when planned without a version), then writes its status, guarded. */
    void writePromotedImage(PromotedImageWrite write);

    /** Creates the verify Job; one already there under that name is left as it is. */
    void createVerifyJob(VerifyJobWrite write);

    /** Replaces the ImagePromotion's status, guarded by the version planned from. */
    void writeStatus(ImagePromotionView promotion, PromotionStatus status);

    /**
     * Records the plan's Kubernetes Events on the ImagePromotion (core/v1, through the project's Event writer):
     * information about what was written, so a failure to record one is logged and never fails the plan.
     */
    void tell(ImagePromotionView promotion, List<PromotionEvent> events);
}
