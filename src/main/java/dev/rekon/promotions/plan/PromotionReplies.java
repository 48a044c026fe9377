package dev.rekon.promotions.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotionNames;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.StageStatus;

/** The reply of an advancing plan: the most telling thing it does, the objects it writes, and where each stage stands. */
final class PromotionReplies {

    static final String ROLLED_BACK = "RolledBack";
    static final String PROMOTED = "Promoted";
    static final String VERIFY_STARTED = "VerifyStarted";
    static final String STATUS_UPDATED = "StatusUpdated";
    static final String UP_TO_DATE = "UpToDate";

    private PromotionReplies() {
    }

    static Reply of(ImagePromotionView p, List<PromotedImageWrite> writes, List<VerifyJobWrite> jobs,
            PromotionStatus status, boolean rolledBack, String unchangedReason, List<StageStatus> stages) {
        List<ObjectRef> objects = new ArrayList<>();
        objects.add(p.ref());
        writes.forEach(w -> objects.add(PromotionNames.promoted(w.namespace(), w.name())));
        jobs.forEach(j -> objects.add(new ObjectRef("batch/v1", "Job", j.namespace(), j.name())));
        String where = stages.stream().map(s -> s.name() + " " + s.phase()
                + (s.image() == null ? "" : " " + s.image())
                + (s.waitingFor() == null ? "" : " (waits for " + s.waitingFor() + ")"))
                .collect(Collectors.joining("; "));
        if (rolledBack) {
            return Reply.applied(ROLLED_BACK, where, objects);
        }
        if (!writes.isEmpty()) {
            return Reply.applied(PROMOTED, where, objects);
        }
        if (!jobs.isEmpty()) {
            return Reply.applied(VERIFY_STARTED, where, objects);
        }
        if (status != null) {
            return Reply.applied(STATUS_UPDATED, where, objects);
        }
        return Reply.unchanged(unchangedReason == null ? UP_TO_DATE : unchangedReason, where, objects);
    }
}
