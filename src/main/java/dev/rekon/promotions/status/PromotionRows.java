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
 * was made from and found equal), one cell per stage in spec order, the plan's own refusal when the input was bad,
 * and whether the cluster already is as planned. An approval the plan refused changes nothing of the promotion, so it
 * shows the promotion as it stands. A promotion not read yet shows its status as written, marked so.
 */
public final class PromotionRows {

    private PromotionRows() {
    }

    /** Why a row shows no plan: this process has not read the promotion's stages yet. */
    public static final String NOT_READ = "NotReadYet";

    /** The promotion as this plan, made at the request's now, leaves it. */
    public static PromotionStages row(PromotionRequest r, ImagePromotionPlan plan) {
        return row(plan, r.now());
    }

    /** The promotion as this plan, made at {@code now}, leaves it. */
    public static PromotionStages row(ImagePromotionPlan plan, Instant now) {
        ImagePromotionView p = plan.promotion();
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
                refused ? "False" : ready == null ? "Unknown" : ready.status(), reason, message, problem, cells,
                !plan.writes(), now);
    }

    /**
     * A promotion whose stages this process has not read (never attempted here, or a stage added since): its stages
     * as its status says, no plan, and what to wait for; not a problem in itself.
     */
    public static PromotionStages notRead(ImagePromotionView p, List<String> stagesUnread, Instant now) {
        List<StageCell> cells = new ArrayList<>();
        for (PromotionStage stage : p.spec().stages()) {
            if (stage.name() != null) {
                cells.add(cell(stage, stage.namespaceOr(p.namespace()), p.status().stage(stage.name())));
            }
        }
        String what = stagesUnread.isEmpty() ? "its source Image and stages"
                : "stage" + (stagesUnread.size() == 1 ? " " : "s ") + String.join(", ", stagesUnread);
        return new PromotionStages(p.namespace(), p.name(), p.spec().sourceImage(), "Unknown", NOT_READ,
                "not read yet: " + what + " will be read by the next event or resync", false, cells, false, now);
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
