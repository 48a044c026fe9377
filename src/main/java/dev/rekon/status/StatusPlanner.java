package dev.rekon.status;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.rekon.core.ObjectRef;
import dev.rekon.status.StatusReport.Decision;
import dev.rekon.status.StatusReport.Decisions;
import dev.rekon.status.StatusReport.LastOutcome;

/**
 * Makes the status report from views alone (no I/O, no clock of its own): the rows of every area the request
 * asks for, in the namespace it asks for. The same views give the same report; writing nothing, it is what a
 * resync in report mode would say.
 */
public final class StatusPlanner {

    /** The areas {@code ?area=} accepts. */
    public static final Set<String> AREAS = Set.of("rollouts", "buildpacks", "modules", "declared", "decisions");
    static final String DECISIONS_SCOPE = "this replica only: the last " + DecisionLog.CAPACITY
            + " event outcomes it handled, newest first; every replica keeps its own";

    /**
     * Every input, explicit.
     *
     * @param namespace only this namespace (and no cluster-scoped object), or null for all the views hold
     * @param area      one of {@link #AREAS}, or null for all
     */
    public record Request(StatusViews views, String namespace, String area, Instant now) {
    }

    private StatusPlanner() {
    }

    /** The report's rows of buildpacks, builders and decisions; the areas' reports add the others. */
    public static StatusReport plan(StatusReport report, Request r) {
        StatusViews v = r.views();
        Predicate<String> inScope = ns -> r.namespace() == null || r.namespace().equals(ns);
        var buildpacks = wants(r, "buildpacks") ? BuildRows.buildpacks(v.buildpacks().stream()
                .filter(b -> inScope.test(b.namespace())).toList()) : null;
        var builders = wants(r, "buildpacks") ? BuildRows.builders(v.builders().stream()
                .filter(b -> inScope.test(b.namespace())).toList()) : null;
        var decisions = wants(r, "decisions") ? new Decisions(DECISIONS_SCOPE, DecisionLog.CAPACITY,
                v.decisions().stream().filter(d -> r.namespace() == null || d.objects().stream()
                        .anyMatch(o -> r.namespace().equals(o.namespace()))).toList()) : null;
        return report.withRows(buildpacks, builders, decisions).withLastOutcomes(lastOutcomes(v.decisions()));
    }

    private static boolean wants(Request r, String area) {
        return r.area() == null || r.area().equals(area);
    }

    /** The newest outcome per ImageDeploy ({@code namespace/name}) among the decisions, which come newest first. */
    static Map<String, LastOutcome> lastOutcomes(List<Decision> decisions) {
        Map<String, LastOutcome> last = new HashMap<>();
        for (Decision d : decisions) {
            for (ObjectRef o : d.objects()) {
                if ("ImageDeploy".equals(o.kind())) {
                    last.putIfAbsent(o.namespace() + "/" + o.name(), new LastOutcome(d.outcome(), d.reason(), d.time()));
                }
            }
        }
        return last;
    }

}
