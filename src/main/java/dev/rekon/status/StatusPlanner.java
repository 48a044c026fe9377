package dev.rekon.status;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import dev.rekon.status.StatusReport.Decision;
import dev.rekon.status.StatusReport.Decisions;

/**
 * Adds what the page itself keeps to the areas' sections (no I/O, no clock of its own): this replica's recent
 * decisions in the namespace asked for, and to each section those it shows beside its rows
 * ({@link AreaSection#decided}). No decision of
 * Rekon's is made here: the areas' {@link AreaReport}s render their plans.
 */
public final class StatusPlanner {

    /** The areas the page names itself; {@code ?area=} also accepts every {@link AreaReport}'s own. */
    public static final Set<String> AREAS = Set.of("rollouts", "buildpacks", "modules", "declared", "decisions");
    static final String DECISIONS_SCOPE = "this replica only: the last " + DecisionLog.CAPACITY
            + " event outcomes it handled, newest first; every replica keeps its own";

    /**
     * Every input, explicit.
     *
     * @param decisions this replica's recent decisions, newest first
     * @param namespace only this namespace, or null for all
     * @param area      one of {@link #AREAS}, or null for all
     */
    public record Request(List<Decision> decisions, String namespace, String area, Instant now) {
    }

    private StatusPlanner() {
    }

    /** The report with the decisions section (when the area asks for it), and each section with what was decided. */
    public static StatusReport plan(StatusReport report, Request r) {
        var decisions = r.area() == null || "decisions".equals(r.area()) ? new Decisions(DECISIONS_SCOPE,
                DecisionLog.CAPACITY, r.decisions().stream().filter(d -> r.namespace() == null || d.objects().stream()
                        .anyMatch(o -> r.namespace().equals(o.namespace()))).toList()) : null;
        return report.withDecisions(decisions).withSections(s -> s.decided(r.decisions()));
    }
}
