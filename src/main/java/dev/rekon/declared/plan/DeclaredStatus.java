package dev.rekon.declared.plan;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.Conditions.Condition;
import dev.rekon.core.ObjectRef;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.inventory.Inventory;

/**
 * A DeclaredState's status as a plan decides it, built on the status it had (conditions keep their transition
 * time while their status stays): the revision, the inventory, the orphans, and the conditions {@code Ready} and
 * {@code Reconciling}, each with the generation it was decided for. Compared field by field with the status it
 * was built on, as typed values, so a status read back from the server (its numbers ints) equals the one planned
 * and no write is made that changes nothing.
 */
final class DeclaredStatus {

    private final DeclaredStateStatus current;
    private final long generation;
    private final Instant now;
    private String revision;
    private String attempted;
    private List<Inventory.Entry> inventory;
    private Integer objectCount;
    private List<DeclaredStateStatus.Orphan> orphans;
    private Integer orphanCount;
    private List<Conditions.Written> conditions;

    DeclaredStatus(DeclaredStateView state, Instant now) {
        this(state, state.recorded(), now);
    }

    /** Built on {@code base}, a status planned for {@code state} before (what it has once that is written). */
    DeclaredStatus(DeclaredStateView state, DeclaredStateStatus base, Instant now) {
        this.current = base;
        this.generation = state.generation();
        this.now = now;
        this.revision = base.revision();
        this.attempted = base.lastAttemptedRevision();
        this.inventory = base.inventory();
        this.objectCount = base.objectCount();
        this.orphans = base.orphans();
        this.orphanCount = base.orphanCount();
        this.conditions = base.conditions();
    }

    DeclaredStatus revision(String revision) {
        this.revision = revision;
        return this;
    }

    DeclaredStatus attempted(String revision) {
        if (revision != null) {
            this.attempted = revision;
        }
        return this;
    }

    DeclaredStatus inventory(List<ObjectRef> refs) {
        this.inventory = Inventory.of(refs).objects();
        this.objectCount = refs.size();
        return this;
    }

    /**
     * The {@value DeclaredPlan#LISTED_ORPHANS} oldest of {@code list} (by since, then by identity, so the same
     * orphans give the same list whatever order they were found in), and {@code count}, how many there are in all.
     */
    DeclaredStatus orphans(List<DeclaredPlan.Orphan> list, int count) {
        this.orphans = list.stream()
                .sorted(Comparator.comparing(DeclaredPlan.Orphan::since).thenComparing(o -> Identity.key(o.ref())))
                .limit(DeclaredPlan.LISTED_ORPHANS)
                .map(o -> new DeclaredStateStatus.Orphan(o.ref().apiVersion(), o.ref().kind(),
                        o.ref().namespace(), o.ref().name(), o.since().toString(),
                        o.deleteAfter() == null ? null : o.deleteAfter().toString())).toList();
        this.orphanCount = count;
        return this;
    }

    DeclaredStatus condition(Condition c) {
        conditions = Conditions.set(conditions, c, generation, now);
        return this;
    }

    DeclaredStatus ready(String statusValue, String reason, String message) {
        return condition(new Condition("Ready", statusValue, reason, message));
    }

    DeclaredStatus reconciling(boolean reconciling, String reason, String message) {
        return condition(reconciling ? Condition.isTrue("Reconciling", reason, message)
                : Condition.isFalse("Reconciling", reason, message));
    }

    /** The status, or null when it is what the DeclaredState already has (the write is skipped). */
    DeclaredStateStatus changed() {
        DeclaredStateStatus next = new DeclaredStateStatus(generation, revision, attempted, inventory, objectCount,
                orphans, orphanCount, conditions);
        return next.equals(current) ? null : next;
    }
}
