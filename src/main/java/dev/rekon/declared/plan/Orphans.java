package dev.rekon.declared.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.rekon.core.ObjectRef;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;

/**
 * The orphans of a DeclaredState now: from the objects listed in its namespaces when this attempt listed them
 * ({@link OrphanRules}), else those its status names that git still does not declare. Each keeps the
 * {@code since} it was first seen; with {@code Delete}, {@code deleteAfter} is since plus the grace period, and
 * those past it are deleted as they were seen. Without a scan, the count is the one the status recorded, less
 * those of its listed orphans git declares now (the status lists only the oldest: {@link DeclaredPlan#LISTED_ORPHANS}).
 */
final class Orphans {

    /** The orphans found, those to delete now, and how many orphans there are in all. */
    record Found(List<DeclaredPlan.Orphan> orphans, List<LiveObject> delete, int count) {
    }

    private Orphans() {
    }

    static Found of(DeclaredViews v, Set<String> declared, Set<String> recorded) {
        Map<String, Instant> since = new HashMap<>();
        List<ObjectRef> previous = new ArrayList<>();
        List<DeclaredStateStatus.Orphan> listed = v.state().recorded().orphans();
        for (DeclaredStateStatus.Orphan o : listed == null ? List.<DeclaredStateStatus.Orphan>of() : listed) {
            ObjectRef ref = new ObjectRef(Objects.requireNonNullElse(o.apiVersion(), ""),
                    Objects.requireNonNullElse(o.kind(), ""), o.namespace(), Objects.requireNonNullElse(o.name(), ""));
            previous.add(ref);
            since.put(Identity.key(ref), parse(o.since(), v.now()));
        }
        List<DeclaredPlan.Orphan> orphans = new ArrayList<>();
        List<LiveObject> delete = new ArrayList<>();
        if (v.scanned() == null) {
            previous.stream().filter(r -> !declared.contains(Identity.key(r)))
                    .forEach(r -> orphans.add(orphan(v, r, since.get(Identity.key(r)))));
            Integer counted = v.state().recorded().orphanCount();
            int gone = previous.size() - orphans.size();
            return new Found(orphans, delete, Math.max(orphans.size(),
                    (counted == null ? previous.size() : counted) - gone));
        }
        for (Scanned o : v.scanned()) {
            String key = Identity.key(o.ref());
            if (declared.contains(key) || recorded.contains(key) || !OrphanRules.orphan(o, v)) {
                continue;
            }
            DeclaredPlan.Orphan orphan = orphan(v, o.ref(), since.getOrDefault(key,
                    v.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
            orphans.add(orphan);
            if (orphan.deleteAfter() != null && !v.now().isBefore(orphan.deleteAfter())) {
                delete.add(o.live());
            }
        }
        return new Found(orphans, delete, orphans.size());
    }

    private static DeclaredPlan.Orphan orphan(DeclaredViews v, ObjectRef ref, Instant since) {
        return new DeclaredPlan.Orphan(ref, since,
                v.state().deleteOrphans() ? since.plus(v.state().gracePeriod()) : null);
    }

    private static Instant parse(String text, Instant fallback) {
        try {
            return text == null ? fallback : Instant.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            return fallback;
        }
    }
}
