package dev.rekon.promotions.status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.rekon.cluster.Conditions;
import dev.rekon.promotions.plan.ImagePromotionPlan;
import dev.rekon.promotions.plan.PromotionRequest;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;

/**
 * What the page shows of one promotion plan, purely: the status the plan writes (or, when it writes none, the one it
 * was made from and found equal), one cell per stage in spec order, and the plan's own refusal when the input was
 * bad. An approval the plan refused changes nothing of the promotion, so it shows the promotion as it stands.
 */
public final class PromotionBoard {

    private PromotionBoard() {
    }

    /** The promotion as this plan leaves it. */
    public static PromotionStages remember(PromotionRequest r, ImagePromotionPlan plan) {
        ImagePromotionView p = r.promotion();
        PromotionStatus status = plan.status() != null ? plan.status() : p.status();
        List<StageCell> cells = new ArrayList<>();
        for (PromotionStage stage : p.spec().stages()) {
            if (stage.name() != null) {
                cells.add(cell(stage, stage.namespaceOr(p.namespace()), status.stage(stage.name())));
            }
        }
        Conditions.Written ready = status.condition("Ready");
        boolean refused = plan instanceof ImagePromotionPlan.Refused;
        String reason = refused ? plan.reply().reason() : ready == null ? null : ready.reason();
        String message = refused ? plan.reply().message() : ready == null ? null : ready.message();
        boolean problem = refused || ready != null && !"True".equals(ready.status())
                || cells.stream().anyMatch(StageCell::problem);
        return new PromotionStages(p.namespace(), p.name(), p.spec().sourceImage(),
                refused ? "False" : ready == null ? "Unknown" : ready.status(), reason, message, problem, cells, false,
                r.now());
    }

    static StageCell cell(PromotionStage stage, String namespace, StageStatus s) {
        String where = (stage.remote() ? "cluster of Secret " + stage.cluster().name() : "this cluster")
                + ", namespace " + namespace;
        boolean problem = s.phase() == StagePhase.Failed || s.phase() == StagePhase.RolledBack;
        return new StageCell(stage.name(), where, s.image(), digest(s.image()), s.buildCounter(), s.phase().name(),
                s.since(), s.soakEnd(), null, s.waitingFor(), stage.approval() == PromotionStage.Approval.MANUAL,
                s.message(), s.lastFailed(), problem);
    }

    /** {@code sha256:} and the first 12 hex digits, as {@code docker images} shows a digest; null without one. */
    static String digest(String image) {
        int at = image == null ? -1 : image.indexOf("sha256:");
        return at < 0 ? null : image.substring(at, Math.min(image.length(), at + "sha256:".length() + 12));
    }

    /** The time from {@code now} to {@code end} in words ({@code 4m 10s}), or {@code ending} once it passed. */
    static String left(Instant now, Instant end) {
        Duration d = Duration.between(now, end);
        if (d.isNegative() || d.isZero()) {
            return "ending";
        }
        long s = d.toSeconds();
        if (s >= 3600) {
            return s / 3600 + "h " + (s % 3600) / 60 + "m";
        }
        return s >= 60 ? s / 60 + "m " + s % 60 + "s" : s + "s";
    }
}
