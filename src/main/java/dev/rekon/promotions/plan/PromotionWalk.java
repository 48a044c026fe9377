package dev.rekon.promotions.plan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.Reply;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionSpec;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionHistory;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;

/**
 * One plan's walk through the stages of an ImagePromotion, in spec order (what {@link ImagePromotionPlanner}
 * decides once the input is usable): per stage, the build that is there now, the build offered and whether it
 * enters, how far the stage's build has come, a rollback; then the status, the history entries this plan adds,
 * the Kubernetes Events that tell its transitions (one each), and the reply.
 */
final class PromotionWalk {

    private final PromotionRequest r;
    private final ImagePromotionView p;
    private final List<StageStatus> stages = new ArrayList<>();
    private List<PromotionHistory> history;
    private final List<PromotedImageWrite> writes = new ArrayList<>();
    private final List<VerifyJobWrite> jobs = new ArrayList<>();
    private Duration recheck;
    private boolean approvalUsed;
    private boolean rolledBack;
    private final List<PromotionEvent> events = new ArrayList<>();

    PromotionWalk(PromotionRequest r) {
        this.r = r;
        this.p = r.promotion();
        this.history = p.status().history();
    }

    Optional<ImagePromotionPlan.ApprovalRefused> stage(int i) {
        PromotionStage stage = p.spec().stages().get(i);
        String namespace = stage.namespaceOr(p.namespace());
        StageStatus s = arrived(stage, p.status().stage(stage.name()));
        Build offered = offered(i, stage);
        Build waiting = null;
        if (offered != null && enters(offered, s)) {
            if (stage.approval() == PromotionStage.Approval.MANUAL && !approves(stage, offered)) {
                if (r.approval() != null && r.approval().stage().equals(stage.name())) {
                    return Optional.of(new ImagePromotionPlan.ApprovalRefused(p, Reply.rejected(
                            ImagePromotionPlanner.APPROVAL_MISMATCH,
                            "stage " + stage.name() + " waits for approval of " + offered.image() + ", not "
                                    + r.approval().image() + ": nothing was written", List.of(p.ref()))));
                }
                waiting = offered;
            } else {
                approvalUsed |= stage.approval() == PromotionStage.Approval.MANUAL;
                s = s.entering(offered, StagePhase.Promoting, r.now(), "written to PromotedImage "
                        + namespace + "/" + stage.promotedImage());
                writes.add(PromotedImageWrites.of(r, stage, namespace, offered, previousName(i)));
                record(stage, s);
            }
        }
        if (s.phase() == StagePhase.WaitingForApproval && waiting == null) {
            s = s.with(settled(s), r.now(), null, "no build waits for approval any more");
        }
        StageProgress.Next next = StageProgress.of(stage, namespace, s,
                r.stages().get(stage.name()), Soak.parse(stage.soak()).orElseThrow(), r.now(), p.namespace(), p.name());
        if (next.status().phase() != s.phase() && next.status().phase() != StagePhase.Soaking
                && next.status().phase() != StagePhase.Verifying) {
            record(stage, next.status());
        }
        s = next.status();
        if (next.verify() != null) {
            jobs.add(next.verify());
        }
        if (next.recheckAfter() != null && (recheck == null || next.recheckAfter().compareTo(recheck) < 0)) {
            recheck = next.recheckAfter();
        }
        if (waiting != null) {
            s = waitFor(s, waiting);
            if (!s.waitingFor().equals(p.status().stage(stage.name()).waitingFor())) {
                events.add(PromotionEvent.waiting(stage.name(), waiting));
            }
        }
        s = rollback(stage, namespace, s);
        stages.add(s);
        return Optional.empty();
    }

    /** The stage's status with what is really there now: the PromotedImage (or the source Image) may say more. */
    private StageStatus arrived(PromotionStage stage, StageStatus s) {
        Build there = there(stage);
        if (there == null || there.same(s.build())) {
            return s;
        }
        if (s.phase() == StagePhase.Failed && there.same(s.proven())) {
            return s.rolledBack(r.now(), "back on " + there.image());
        }
        StageStatus entered = s.entering(there, StagePhase.Promoting, r.now(), "entered");
        record(stage, entered);
        return entered;
    }

    private Build there(PromotionStage stage) {
        if (stage.promotedImage() == null) {
            return r.source().rollable() ? new Build(r.source().latestImage(), r.source().buildCounter()) : null;
        }
        PromotedImageView promoted = r.stages().get(stage.name()).promotedImage();
        return promoted == null ? null : promoted.status().build();
    }

    /** What may enter stage {@code i}: the source's newest build, or the previous stage's once proven. */
    private Build offered(int i, PromotionStage stage) {
        if (i == 0) {
            return stage.promotedImage() != null && r.source().rollable()
                    ? new Build(r.source().latestImage(), r.source().buildCounter()) : null;
        }
        StageStatus previous = stages.get(i - 1);
        return previous.phase() == StagePhase.Proven ? previous.build() : null;
    }

    private String previousName(int i) {
        return i == 0 ? null : p.spec().stages().get(i - 1).name();
    }

    /** Newer than the stage's build, and never failed there: never twice, never backwards. */
    private static boolean enters(Build offered, StageStatus s) {
        return !offered.same(s.build()) && !offered.namedBy(s.lastFailed()) && !offered.olderThan(s.build());
    }

    private boolean approves(PromotionStage stage, Build offered) {
        return r.approval() != null && r.approval().stage().equals(stage.name())
                && offered.namedBy(r.approval().image());
    }

    /** The phase a stage's build had before a newer one waited for approval (the build was settled then). */
    private static StagePhase settled(StageStatus s) {
        if (s.build() == null) {
            return StagePhase.Empty;
        }
        return s.build().same(s.proven()) ? StagePhase.Proven : StagePhase.Failed;
    }

    private StageStatus waitFor(StageStatus s, Build offered) {
        String waiting = "approval of " + offered.image();
        boolean busy = s.phase() == StagePhase.Promoting || s.phase() == StagePhase.Soaking
                || s.phase() == StagePhase.Verifying;
        StagePhase phase = busy ? s.phase() : StagePhase.WaitingForApproval;
        return s.with(phase, r.now(), waiting, busy ? s.message() : "waits for dev.rekon.promotion.approve");
    }

    /** With rollback Automatic, a failed build's stage goes back to its last proven build. */
    private StageStatus rollback(PromotionStage stage, String namespace, StageStatus s) {
        if (s.phase() != StagePhase.Failed || p.spec().rollback() != ImagePromotionSpec.Rollback.AUTOMATIC
                || stage.promotedImage() == null || s.proven() == null || s.proven().same(s.build())) {
            return s;
        }
        writes.add(PromotedImageWrites.of(r, stage, namespace, s.proven(), null));
        StageStatus back = s.rolledBack(r.now(), s.lastFailed() + " failed (" + s.message() + "); back on "
                + s.lastProven());
        record(stage, back);
        rolledBack = true;
        return back;
    }

    private void record(PromotionStage stage, StageStatus s) {
        PromotionHistory entry = new PromotionHistory(stage.name(), s.image(), s.buildCounter(), s.phase(), r.now());
        history = PromotionHistory.prepend(history, entry);
        events.add(PromotionEvent.of(entry));
    }

    ImagePromotionPlan finish() {
        if (r.approval() != null && !approvalUsed) {
            StageStatus at = stages.stream().filter(s -> s.name().equals(r.approval().stage())).findFirst()
                    .orElseThrow();
            if (p.spec().stage(at.name()).approval() != PromotionStage.Approval.MANUAL) {
                return new ImagePromotionPlan.ApprovalRefused(p, Reply.rejected(ImagePromotionPlanner.NOTHING_WAITS,
                        "stage " + at.name() + " takes builds without approval (its approval is Automatic)",
                        List.of(p.ref())));
            }
            Build in = at.build();
            if (in != null && in.namedBy(r.approval().image())) {
                return advance("AlreadyApproved");
            }
            return new ImagePromotionPlan.ApprovalRefused(p, Reply.rejected(ImagePromotionPlanner.NOTHING_WAITS,
                    "stage " + at.name() + " waits for no approval"
                            + (at.waitingFor() == null ? "" : "; it waits for " + at.waitingFor()),
                    List.of(p.ref())));
        }
        return advance(null);
    }

    private ImagePromotionPlan advance(String unchangedReason) {
        PromotionStatus next = ImagePromotionPlanner.withReady(r, stages, history,
                Conditions.Condition.isTrue("Ready", "Reconciled", "every stage could be read and planned"));
        PromotionStatus status = next.equals(p.status()) ? null : next;
        return new ImagePromotionPlan.Advance(p, writes, jobs, status, recheck, PromotionReplies.of(p, writes, jobs,
                status, rolledBack, unchangedReason, stages), status == null ? List.of() : events);
    }
}
