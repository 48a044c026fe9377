package dev.rekon.rollouts.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.rekon.cluster.Conditions;
import dev.rekon.rollouts.view.AppliedImage;
import dev.rekon.rollouts.view.RolloutRecord;

/**
 * Decides which completed rollouts an ImageDeploy's status records ({@code status.history}, newest first, at most
 * {@value #KEPT}): once {@code RolledOut} is True, each image of {@code status.images} that is not the newest
 * record of its name is recorded, as {@link RolloutRecord#DEPLOYED} (no record of that name yet),
 * {@link RolloutRecord#ROLLED_BACK} (an older record has that image: only a promotion's rollback brings a build
 * back) or {@link RolloutRecord#UPGRADED}. A record is written once, with the status that reports it, and is what
 * a stage's CDEvent is sent for. Pure.
 */
public final class RolloutHistory {

    static final int KEPT = 10;

    private RolloutHistory() {
    }

    /** The history to write, or null when it stays as it is. */
    static List<RolloutRecord> next(List<RolloutRecord> current, List<AppliedImage> images,
            List<Conditions.Written> conditions, Instant now) {
        boolean rolledOut = conditions != null && conditions.stream()
                .anyMatch(c -> RolledOut.TYPE.equals(c.type()) && "True".equals(c.status()));
        if (!rolledOut || images == null) {
            return null;
        }
        List<RolloutRecord> had = current == null ? List.of() : current;
        List<RolloutRecord> added = new ArrayList<>();
        for (AppliedImage a : images) {
            List<RolloutRecord> ofName = had.stream().filter(r -> a.name().equals(r.name())).toList();
            if (a.image() == null || !ofName.isEmpty() && a.image().equals(ofName.get(0).image())) {
                continue;
            }
            String change = ofName.isEmpty() ? RolloutRecord.DEPLOYED
                    : ofName.stream().anyMatch(r -> a.image().equals(r.image())) ? RolloutRecord.ROLLED_BACK
                            : RolloutRecord.UPGRADED;
            added.add(new RolloutRecord(a.name(), a.image(), change, now));
        }
        if (added.isEmpty()) {
            return null;
        }
        List<RolloutRecord> next = new ArrayList<>(added);
        next.addAll(had);
        return List.copyOf(next.subList(0, Math.min(KEPT, next.size())));
    }

    /** The records {@code next} adds to {@code current}: the rollouts a status write reports for the first time. */
    public static List<RolloutRecord> added(List<RolloutRecord> current, List<RolloutRecord> next) {
        if (next == null) {
            return List.of();
        }
        List<RolloutRecord> had = current == null ? List.of() : current;
        return next.stream().filter(r -> !had.contains(r)).toList();
    }
}
