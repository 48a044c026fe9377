package dev.rekon.promotions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.rekon.core.TransientFailureException;
import dev.rekon.promotions.apply.PromotionGateway;
import dev.rekon.promotions.plan.PromotedImageWrite;
import dev.rekon.promotions.plan.VerifyJobWrite;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.StageView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Rekon's own promotion gateway in memory, for service tables: the ImagePromotions, the source Images and each
 * stage's view; writes are recorded in order and land (a PromotedImage in its stage's view, a status on the
 * ImagePromotion, each with a new version); a stage can be made unreachable.
 */
final class InMemoryPromotions implements PromotionGateway {

    final Map<String, ImagePromotionView> promotions = new LinkedHashMap<>();
    final Map<String, KpackImage> images = new HashMap<>();
    /** Stage views by stage name (one promotion's stages in these tables). */
    final Map<String, StageView> stages = new HashMap<>();
    final List<String> writes = new ArrayList<>();
    /** The ImageDeploys here ("namespace/name") whose watched status settles no build (a rollout under way). */
    final java.util.Set<String> unsettled = new java.util.HashSet<>();
    final List<String> unreachable = new ArrayList<>();
    /** Stage views as the stages' watches show them (absent: the watch does not hold the stage). */
    final Map<String, StageView> watched = new HashMap<>();
    /** The stages read from their cluster, in order. */
    final List<String> liveReads = new ArrayList<>();
    /** The remote stages whose kubeconfig Secret was read, in order (as the real gateway reads them). */
    final List<String> secretReads = new ArrayList<>();
    /** The source Images read, by name. */
    final List<String> sourceReads = new ArrayList<>();
    /** Source Images as their watch shows them, with the version it shows (absent: the watch does not hold it). */
    final Map<String, dev.rekon.cluster.Versioned<KpackImage>> watchedImages = new HashMap<>();
    /** The versions Image events announced (a null version: unknown), which the watch must show before it is taken. */
    final Map<String, java.util.Optional<String>> seenImages = new HashMap<>();
    /** Where the plans' Kubernetes Events go (as the real gateway hands them to the project's Event writer). */
    dev.rekon.cluster.EventRecorder events = new dev.rekon.testing.RecordingEvents();
    private long version = 100;

    @Override
    public Optional<ImagePromotionView> promotion(String namespace, String name) {
        return Optional.ofNullable(promotions.get(namespace + "/" + name));
    }

    @Override
    public List<ImagePromotionView> promotions(String namespace) {
        return promotions.values().stream().filter(p -> namespace == null || namespace.equals(p.namespace())).toList();
    }

    @Override
    public Optional<KpackImage> sourceImage(String namespace, String name) {
        sourceReads.add(name);
        return Optional.ofNullable(images.get(namespace + "/" + name));
    }

    @Override
    public Optional<KpackImage> sourceImageWatched(String namespace, String name) {
        dev.rekon.cluster.Versioned<KpackImage> held = watchedImages.get(namespace + "/" + name);
        Optional<String> seen = seenImages.get(namespace + "/" + name);
        boolean behind = held != null && seen != null && (seen.isEmpty() || dev.rekon.cluster.Versioned.olderThan(
                held.resourceVersion(), seen.get()));
        return held == null || behind ? Optional.empty() : Optional.of(held.view());
    }

    @Override
    public void sourceSeen(String namespace, String name, String resourceVersion) {
        seenImages.put(namespace + "/" + name, Optional.ofNullable(resourceVersion));
    }

    @Override
    public boolean settledHere(String namespace, String imageDeploy) {
        return !unsettled.contains(namespace + "/" + imageDeploy);
    }

    @Override
    public StageView stage(ImagePromotionView promotion, PromotionStage stage, String followedName, Build current) {
        if (unreachable.contains(stage.name())) {
            throw new TransientFailureException("reading stage " + stage.name() + " failed: connection refused", null);
        }
        liveReads.add(stage.name());
        return stages.get(stage.name());
    }

    /** Every remote stage's Secret is read, as the real gateway does when told no stages to read them of. */
    @Override
    public List<java.util.function.Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads,
            boolean fromWatches) {
        return stages(promotion, reads, fromWatches, null);
    }

    /** Only the Secrets of {@code secretsRead}'s remote stages and of those the watches do not hold are read. */
    @Override
    public List<java.util.function.Supplier<StageView>> stages(ImagePromotionView promotion, List<StageRead> reads,
            boolean fromWatches, java.util.Set<String> secretsRead) {
        reads.stream().map(StageRead::stage).filter(s -> s.remote() && (secretsRead == null || secretsRead.contains(
                s.name()) || !fromWatches || !watched.containsKey(s.name()))).forEach(s -> secretReads.add(s.name()));
        return reads.stream().map(r -> (java.util.function.Supplier<StageView>) () -> fromWatches
                && watched.containsKey(r.stage().name()) ? watched.get(r.stage().name())
                        : stage(promotion, r.stage(), r.followedName(), r.current())).toList();
    }

    /** Read again with the clients the first look's Secret reads gave: no Secret read. */
    @Override
    public List<java.util.function.Supplier<StageView>> stagesAgain(ImagePromotionView promotion,
            List<StageRead> reads) {
        return reads.stream().map(r -> (java.util.function.Supplier<StageView>) () -> stage(promotion, r.stage(),
                r.followedName(), r.current())).toList();
    }

    @Override
    public void writePromotedImage(PromotedImageWrite w) {
        writes.add((w.resourceVersion() == null ? "create" : "update") + " PromotedImage " + w.stage() + " "
                + w.status().latestImage());
        StageView s = stages.get(w.stage());
        PromotedImageView now = new PromotedImageView(w.namespace(), w.name(), "uid", String.valueOf(++version), 1,
                w.status());
        stages.put(w.stage(), new StageView(s.stage(), s.problem(), s.problemMessage(), now, s.imageDeploys(),
                s.verifyJob()));
    }

    @Override
    public void createVerifyJob(VerifyJobWrite w) {
        writes.add("create Job " + w.name());
    }

    @Override
    public void writeStatus(ImagePromotionView p, PromotionStatus status) {
        writes.add("status ImagePromotion " + p.name());
        promotions.put(p.namespace() + "/" + p.name(), new ImagePromotionView(p.namespace(), p.name(), p.uid(),
                String.valueOf(++version), p.generation(), p.spec(), status));
    }

    @Override
    public void tell(ImagePromotionView p, List<dev.rekon.promotions.plan.PromotionEvent> told) {
        told.forEach(e -> {
            if (e.warning()) {
                events.warning(p.ref(), e.reason(), e.message());
            } else {
                events.normal(p.ref(), e.reason(), e.message());
            }
        });
    }
}
