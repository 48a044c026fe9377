package dev.rekon.buildpacks.plan;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.JsonEquality;
import dev.rekon.core.ObjectRef;

/**
 * Compares the status fields Rekon owns with the object's current status and decides whether to write.
 * A condition keeps its {@code lastTransitionTime} while its status stays the same, so re-deciding the same
 * thing writes nothing. Numbers compare by value, as the API server returns them.
 */
final class StatusDiff {

    static final ObjectMapper JSON = new ObjectMapper();

    private StatusDiff() {
    }

    static StatusPlan plan(ObjectRef target, JsonNode current, KpackStatus desired, Set<KpackStatus.Field> owned,
            String reason, String message) {
        Set<KpackStatus.Field> set = EnumSet.noneOf(KpackStatus.Field.class);
        Set<KpackStatus.Field> dropped = EnumSet.noneOf(KpackStatus.Field.class);
        for (KpackStatus.Field field : owned) {
            Object want = field.of(desired);
            JsonNode have = current == null ? null : current.get(field.json());
            if (want == null && have != null && !have.isNull()) {
                dropped.add(field);
            } else if (want != null && !JsonEquality.same(JSON.valueToTree(want), have)) {
                set.add(field);
            }
        }
        return set.isEmpty() && dropped.isEmpty()
                ? new StatusPlan.NoChange(target, "StatusUpToDate", target + " already shows this: " + message)
                : new StatusPlan.Write(target, new KpackStatus.Patch(desired.only(set), dropped), reason, message);
    }

    /** The current conditions with {@code set} applied in turn; lastTransitionTime kept while a status holds. */
    static List<Conditions.Written> conditions(JsonNode currentStatus, long generation, Instant now,
            Conditions.Condition... set) {
        List<Conditions.Written> out = Conditions.read(currentStatus == null ? null : currentStatus.get("conditions"));
        for (Conditions.Condition c : set) {
            out = Conditions.set(out, c, generation, now);
        }
        return out;
    }
}
