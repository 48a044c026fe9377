package dev.rekon.promotions;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.pipeline.ReportOnly;
import dev.rekon.resync.FannedOut;
import dev.rekon.web.OutgoingEvent;
import dev.rekon.promotions.apply.PromotionGateway;
import dev.rekon.promotions.plan.PromotedImageWrite;
import dev.rekon.promotions.plan.ImagePromotionPlan;
import dev.rekon.promotions.plan.ImagePromotionPlanner;
import dev.rekon.promotions.plan.PromotionRequest;
import dev.rekon.promotions.plan.VerifyJobWrite;
import dev.rekon.promotions.status.PromotionStagesReport;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionNames;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.StageView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * Promotions as the one reconcile loop runs them, for one ImagePromotion: reads it, its source kpack Image and
 * every stage (through {@link PromotionGateway}, each stage in its own cluster), plans with the pure
 * {@link ImagePromotionPlanner}, and writes the PromotedImages and verify Jobs, then the status. A stage whose spec
 * is bad is read no further than needed: a refused plan writes to no stage. The loop keeps what each last attempt
 * read ({@link HeldReads}), for the page's plans ({@link #page}), which read nothing.
 */
@ApplicationScoped
public class PromotionReconciler implements Reconciler<PromotionKey, PromotionRequest, ImagePromotionPlan>,
        FannedOut<PromotionKey> {

    @Inject
    PromotionGateway gateway;

    @Inject
    NamespaceGuard guard;

    @Inject
    Clock clock;

    @Inject
    LastPlans plans;

    private final ImagePromotionPlanner planner = new ImagePromotionPlanner();

    /** The ImagePromotion's reconcile event ({@link PromotionFunctions#reconcileEvent}). */
    @Override
    public OutgoingEvent reconcileEvent(PromotionKey key) {
        return PromotionFunctions.reconcileEvent(key.namespace(), key.name());
    }

    @Override
    public ObjectRef subject(PromotionKey key) {
        return PromotionNames.promotion(key.namespace(), key.name());
    }

    /**
     * A trigger (a rollout's event, a stage's CDEvent: the key carries the promotion as its watch shows it) plans
     * from the stages' watches and the source Image's ({@link #watchedSource}); a retry after a lost race reads all. Such an event can come before a watch shows what it announces (a stage's CDEvent
     * ahead of that cluster's watch), so a plan from the watches that writes no stage is made again with the stages
     * the trigger announces a change of read as they are now: the watches only ever spare a read, never hold a build
     * back; a change this process wrote itself is held by them already, and is not read again. Any other stage's
     * change comes with a trigger of its own, which reads that stage again if needed.
     */
    @Override
    public Optional<PromotionRequest> load(PromotionKey key, boolean fresh) {
        boolean trigger = !fresh && key.seen() != null;
        return (trigger ? Optional.of(latest(key.seen())) : gateway.promotion(key.namespace(), key.name())).map(p -> {
            if (!trigger) {
                return request(p, key, false, null, null);
            }
            PromotionRequest watched = request(p, key, true, null, null);
            if (planner.plan(watched) instanceof ImagePromotionPlan.Advance a && !a.promotedImages().isEmpty()) {
                return watched;
            }
            // A stage refused a moment ago was refused by its Secret, read live: it is not read again.
            Map<String, StageView> kept = new LinkedHashMap<>(watched.stages());
            kept.entrySet().removeIf(s -> key.mayBeAhead().contains(s.getKey()) && s.getValue().problem() == null);
            if (kept.size() == watched.stages().size()) {
                return watched;
            }
            // The source Image and the Secrets were taken a moment ago in this attempt: only stages are read.
            return request(p, key, false, () -> Optional.ofNullable(watched.source()), kept);
        });
    }

    /**
     * The promotion as its watch shows it now, with this process's own status writes: a trigger can wait its turn
     * behind an attempt that wrote the status after the trigger found the promotion, and a write guarded by the
     * version found then would be refused (409).
     */
    private ImagePromotionView latest(ImagePromotionView seen) {
        return gateway.promotions(seen.namespace()).stream().filter(p -> p.name().equals(seen.name())).findFirst()
                .orElse(seen);
    }

    /**
     * The source Image and every stage are read at once, once the spec alone allows them to be read (a stage in a
     * namespace Rekon may not act in is never read); the stages are taken only when the source exists.
     * {@code kept} (null: none): a trigger's second look, with these stages as its first took them and the others
     * read again, each remote one through the client its Secret gave a moment ago.
     */
    private PromotionRequest request(ImagePromotionView p, PromotionKey key, boolean fromWatches,
            Supplier<Optional<KpackImage>> sourceKnown, Map<String, StageView> kept) {
        PromotionRequest bare = new PromotionRequest(p, null, Map.of(), key.approval(), guard::allows, clock.instant());
        Optional<KpackImage> watched = sourceKnown == null && fromWatches ? watchedSource(p) : Optional.empty();
        Supplier<Optional<KpackImage>> sourceRead = sourceKnown != null ? sourceKnown
                : watched.isPresent() ? () -> watched
                : gateway.sourceImageSent(p.namespace(), p.spec().sourceImage());
        Map<String, Supplier<StageView>> taken = new LinkedHashMap<>();
        List<PromotionGateway.StageRead> reads = p.spec().stages().stream().map(stage -> new PromotionGateway
                .StageRead(stage, stage.promotedImage() != null ? stage.promotedImage() : p.spec().sourceImage(),
                        p.status().stage(stage.name()).build())).toList();
        if (ImagePromotionPlanner.problemBeforeReads(bare).isEmpty()) {
            List<PromotionGateway.StageRead> sent = kept == null ? reads : reads.stream()
                    .filter(r -> !kept.containsKey(r.stage().name())).toList();
            List<Supplier<StageView>> views = kept == null ? gateway.stages(p, sent, fromWatches, fromWatches
                    ? mayWrite(p, key.changedStages()) : null) : gateway.stagesAgain(p, sent);
            for (int i = 0; i < sent.size(); i++) {
                taken.put(sent.get(i).stage().name(), views.get(i));
            }
            if (kept != null) {
                kept.forEach((name, view) -> taken.put(name, () -> view));
            }
        }
        KpackImage source = sourceRead.get().orElse(null);
        Map<String, StageView> stages = new LinkedHashMap<>();
        if (ImagePromotionPlanner.specProblem(new PromotionRequest(p, source, Map.of(), key.approval(), guard::allows,
                bare.now())).isEmpty()) {
            for (PromotionGateway.StageRead r : reads) {
                StageView view = taken.get(r.stage().name()).get();
                stages.put(r.stage().name(), view);
                if (view.problem() != null) {
                    break;
                }
            }
        }
        return new PromotionRequest(p, source, stages, key.approval(), bare.namespaceAllowed(), bare.now());
    }

    /**
     * The source Image as its watch shows it, for a trigger; empty (read it) when the watch shows an older build than
     * the status records of the first stage, whose builds come from the source: a watch behind a read made since
     * is not planned from, so no stage is planned back to an older build.
     */
    private Optional<KpackImage> watchedSource(ImagePromotionView p) {
        Build first = p.spec().stages().isEmpty() ? null : p.status().stage(p.spec().stages().get(0).name()).build();
        return gateway.sourceImageWatched(p.namespace(), p.spec().sourceImage()).filter(s -> s.latestImage() == null
                || !new Build(s.latestImage(), s.buildCounter()).olderThan(first));
    }

    /**
     * The stages a trigger announcing a change of {@code changed} expects to write: those (a rollback, a verify
     * Job), the one after each (a build proven there), and the first (a source's build). Only their kubeconfig
     * Secrets are read up front; a write elsewhere (an event lost before) reads its Secret when it writes.
     */
    static Set<String> mayWrite(ImagePromotionView p, Set<String> changed) {
        Set<String> out = new java.util.HashSet<>(changed);
        List<PromotionStage> stages = p.spec().stages();
        for (int i = 0; i < stages.size(); i++) {
            if (i == 0 || changed.contains(stages.get(i - 1).name())) {
                out.add(stages.get(i).name());
            }
        }
        return out;
    }

    /**
     * Two triggers of the same promotion as its watch showed it, waiting together, run once, announcing the
     * changes of both; any other keys run one after the other.
     */
    @Override
    public PromotionKey merge(PromotionKey pending, PromotionKey newer) {
        if (pending.equals(newer)) {
            return newer;
        }
        if (newer.seen() != null && newer.seen().equals(pending.seen()) && java.util.Objects.equals(
                pending.approval(), newer.approval())) {
            return pending.and(newer);
        }
        return null;
    }

    /** A soak's recheck plans the promotion alone: the approval an event carried is that event's, not the recheck's. */
    @Override
    public PromotionKey rescheduled(PromotionKey key) {
        return PromotionKey.of(key.namespace(), key.name());
    }

    @Override
    public Reply gone(PromotionKey key) {
        return Reply.unchanged("PromotionNotFound", "ImagePromotion " + key.namespace() + "/" + key.name()
                + " does not exist", java.util.List.of(subject(key)));
    }

    @Override
    public ImagePromotionPlan plan(PromotionRequest views) {
        return planner.plan(views);
    }

    @Override
    public String lastPlansArea() {
        return PromotionStagesReport.AREA;
    }

    /** What the attempt read of the source Image and the stages, for the page ({@link HeldReads}). */
    @Override
    public Object remember(PromotionRequest views, ImagePromotionPlan plan) {
        return HeldReads.of(views);
    }

    /**
     * What is kept once the plan is carried out in full: the stages as it left them ({@link HeldReads#after}), so
     * that a page plan never promotes the same build again.
     */
    @Override
    public Object rememberCarriedOut(Object remembered, ImagePromotionPlan plan, Object answer) {
        return remembered instanceof HeldReads held && plan instanceof ImagePromotionPlan.Advance a ? held.after(a)
                : remembered;
    }

    /**
     * This reconciler as the page plans with it at {@code now} ({@link ReportOnly}): each key carries the promotion
     * as its watch shows it ({@link PromotionKey#seen}), the source Image and the stages are the ones held; no API
     * call. Empty for a promotion not read yet ({@link #unread}).
     */
    public Reconciler<PromotionKey, PromotionRequest, ImagePromotionPlan> page(Instant now) {
        return new ReportOnly<>(this, key -> key.seen() == null ? Optional.empty() : held(key.seen(), now));
    }

    /**
     * What keeps the page from planning the promotion from what is held, or empty when nothing does: no attempt of
     * this process read it (an empty list), or stages its plan would take were never read (added to the spec since).
     */
    public Optional<List<String>> unread(ImagePromotionView p) {
        Optional<HeldReads> held = plans.<HeldReads>of(PromotionStagesReport.AREA, subject(PromotionKey.of(
                p.namespace(), p.name()))).map(LastPlans.Last::remembered);
        if (held.isEmpty()) {
            return Optional.of(List.of());
        }
        PromotionRequest r = new PromotionRequest(p, held.get().source(), Map.of(), null, guard::allows,
                clock.instant());
        List<String> unread = ImagePromotionPlanner.specProblem(r).isEmpty() ? held.get().unread(p) : List.of();
        return unread.isEmpty() ? Optional.empty() : Optional.of(unread);
    }

    private Optional<PromotionRequest> held(ImagePromotionView p, Instant now) {
        if (unread(p).isPresent()) {
            return Optional.empty();
        }
        return plans.<HeldReads>of(PromotionStagesReport.AREA, subject(PromotionKey.of(p.namespace(), p.name())))
                .map(LastPlans.Last::remembered)
                .map(h -> new PromotionRequest(p, h.source(), h.stages(), null, guard::allows, now));
    }

    @Override
    public void apply(ImagePromotionPlan plan) {
        if (plan instanceof ImagePromotionPlan.Advance a) {
            for (PromotedImageWrite w : a.promotedImages()) {
                gateway.writePromotedImage(w);
            }
            for (VerifyJobWrite j : a.verifyJobs()) {
                gateway.createVerifyJob(j);
            }
        }
        if (plan.status() != null) {
            gateway.writeStatus(plan.promotion(), plan.status());
        }
        if (plan instanceof ImagePromotionPlan.Advance a && !a.events().isEmpty()) {
            gateway.tell(a.promotion(), a.events());
        }
    }
}
