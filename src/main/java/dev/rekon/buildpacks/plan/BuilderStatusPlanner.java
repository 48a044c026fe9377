package dev.rekon.buildpacks.plan;

import java.time.Instant;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.cluster.Conditions;

/**
 * Decides a Builder's or ClusterBuilder's status (kpack v1alpha2 shape) from resolving its {@code spec.order}:
 * {@code order}, {@code builderMetadata}, {@code Ready} and {@code UpToDate}, {@code observedGeneration}.
 * When resolution fails, the order resolved before is kept (and {@code Ready} stays True on it) while
 * {@code UpToDate} turns False saying why; without an earlier order, {@code Ready} is False too.
 */
public final class BuilderStatusPlanner {

    public static final String READY = "Ready";
    public static final String UP_TO_DATE = "UpToDate";
    public static final String RESOLVED = "Resolved";
    public static final String PREVIOUS = "PreviousOrderKept";
    static final Set<KpackStatus.Field> OWNED_ON_FAILURE = Set.of(KpackStatus.Field.CONDITIONS,
            KpackStatus.Field.OBSERVED_GENERATION);
    static final Set<KpackStatus.Field> OWNED_ON_SUCCESS = Set.of(KpackStatus.Field.ORDER,
            KpackStatus.Field.BUILDER_METADATA, KpackStatus.Field.CONDITIONS, KpackStatus.Field.OBSERVED_GENERATION);

    private BuilderStatusPlanner() {
    }

    public static StatusPlan plan(BuilderView builder, Catalog catalog, Instant now) {
        Resolution r = BuildpackResolver.resolve(builder.isClusterBuilder(), builder.order(), catalog);
        JsonNode current = builder.status();
        long gen = builder.generation();
        if (r instanceof Resolution.Resolved ok) {
            String message = "resolved " + ok.metadata().size() + " buildpacks in " + ok.order().size() + " groups";
            KpackStatus status = new KpackStatus(gen, StatusDiff.conditions(current, gen, now,
                    Conditions.Condition.isTrue(READY, RESOLVED, message),
                    Conditions.Condition.isTrue(UP_TO_DATE, RESOLVED, message)), null, ok.order(), ok.metadata());
            return StatusDiff.plan(builder.ref(), current, status, OWNED_ON_SUCCESS, RESOLVED, message);
        }
        Resolution.Failed f = (Resolution.Failed) r;
        boolean hasPrevious = current != null && current.path("order").size() > 0;
        KpackStatus status = new KpackStatus(gen, StatusDiff.conditions(current, gen, now, hasPrevious
                ? Conditions.Condition.isTrue(READY, PREVIOUS,
                        "keeps the order resolved before; UpToDate says why the current spec does not resolve")
                : Conditions.Condition.isFalse(READY, f.reason(), f.message()),
                Conditions.Condition.isFalse(UP_TO_DATE, f.reason(), f.message())), null, null, null);
        return StatusDiff.plan(builder.ref(), current, status, OWNED_ON_FAILURE, f.reason(), f.message());
    }
}
