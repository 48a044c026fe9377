package dev.rekon.promotions.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.StageDeploy;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;
import dev.rekon.promotions.view.StageView;
import dev.rekon.promotions.view.VerifyJob;

/**
 * Decides how far the build in one stage has come: rolled out and Ready in every listed ImageDeploy (else still
 * Promoting), soaked for the stage's soak counted from when the last of them settled, then verified by the stage's
 * Job when it has one. An ImageDeploy that runs the build and says Ready=False, or a failed verify Job, fails it;
 * Proven, Failed and RolledBack are final for the build.
 */
final class StageProgress {

    /** The stage's next status, the verify Job to create (null: none) and when to look again (null: on events). */
    record Next(StageStatus status, VerifyJobWrite verify, Duration recheckAfter) {
    }

    private StageProgress() {
    }

    static Next of(PromotionStage stage, String namespace, StageStatus s, StageView view, Duration soak, Instant now,
            String promotionNamespace, String promotionName) {
        Build build = s.build();
        if (build == null || s.phase() == StagePhase.Proven || s.phase() == StagePhase.Failed
                || s.phase() == StagePhase.RolledBack || s.phase() == StagePhase.WaitingForApproval) {
            return new Next(s, null, null);
        }
        List<StageDeploy> deploys = stage.imageDeploys().stream().map(view.imageDeploys()::get).toList();
        for (StageDeploy d : deploys) {
            if (d.failsRunning(build)) {
                return new Next(s.failedNow(now, "ImageDeploy " + d.name() + " failed with " + build.image()
                        + reason(d)), null, null);
            }
        }
        for (StageDeploy d : deploys) {
            if (!d.provesRunning(build)) {
                String why = (s.phase() == StagePhase.Soaking ? "soak interrupted: " : "") + d.notYet(build);
                return new Next(s.with(StagePhase.Promoting, now, null, why), null, null);
            }
        }
        // A soak counts from when the last ImageDeploy settled with the build, never from before the soak began, nor
        // before Rekon wrote the build into the stage; a first stage's build (kpack wrote it) may be noticed late.
        Instant settled = s.phase() == StagePhase.Soaking || stage.promotedImage() != null ? s.since() : null;
        for (StageDeploy d : deploys) {
            Instant at = d.settledAt();
            if (at != null && (settled == null || at.isAfter(settled))) {
                settled = at;
            }
        }
        Instant soakEnd = (settled == null ? now : settled).plus(soak);
        if (now.isBefore(soakEnd)) {
            StageStatus soaking = s.phase() == StagePhase.Soaking ? s : s.with(StagePhase.Soaking, settled, null, null);
            return new Next(new StageStatus(soaking.name(), soaking.image(), soaking.buildCounter(), StagePhase.Soaking,
                    soaking.since(), soaking.lastProven(), soaking.lastProvenBuildCounter(), soaking.lastFailed(),
                    StageStatus.SOAK_UNTIL + soakEnd, "rolled out and Ready; soaking"), null, Duration.between(now, soakEnd));
        }
        if (stage.verifyJob() == null) {
            return new Next(s.provenNow(now, "rolled out, Ready and soaked"), null, null);
        }
        return verify(stage, namespace, s, view.verifyJob(), now, promotionNamespace, promotionName);
    }

    private static Next verify(PromotionStage stage, String namespace, StageStatus s, VerifyJob job, Instant now,
            String promotionNamespace, String promotionName) {
        String name = VerifyJobs.name(promotionName, stage.name(), s.build());
        if (job == null || !job.name().equals(name)) {
            return new Next(s.with(StagePhase.Verifying, now, "verify Job " + name, "soaked; verify Job started"),
                    new VerifyJobWrite(promotionNamespace, stage.name(), stage.cluster(), namespace, name,
                            stage.verifyJob(), s.image()),
                    null);
        }
        return switch (job.state()) {
            case SUCCEEDED -> new Next(s.provenNow(now, "rolled out, soaked, verify Job " + name + " succeeded"), null,
                    null);
            case FAILED -> new Next(s.failedNow(now, "verify Job " + name + " failed"
                    + (job.message() == null ? "" : ": " + job.message())), null, null);
            case RUNNING -> new Next(s.with(StagePhase.Verifying, now, "verify Job " + name, "soaked; verifying"),
                    null, null);
        };
    }

    private static String reason(StageDeploy d) {
        var c = d.failure();
        return " (" + c.type() + "=False" + (c.reason() == null ? "" : ": " + c.reason())
                + (c.message() == null ? "" : ", " + c.message()) + ")";
    }
}
