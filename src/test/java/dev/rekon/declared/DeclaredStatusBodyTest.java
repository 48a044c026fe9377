package dev.rekon.declared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.Conditions;
import dev.rekon.core.ObjectRef;
import dev.rekon.declared.apply.DeclaredStatusBody;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.manifests.inventory.Inventory;

/** A DeclaredState's status is parsed once and written once: what is written reads back as the same record. */
class DeclaredStatusBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final DeclaredStateStatus FULL = new DeclaredStateStatus(3L, "main@sha1:c0ffee", "main@sha1:beef",
            List.of(Inventory.Entry.of(new ObjectRef("v1", "ConfigMap", "team-a", "settings"))), 1,
            List.of(new DeclaredStateStatus.Orphan("v1", "ConfigMap", "team-a", "old", "2026-01-01T00:00:00Z", null)),
            1, List.of(new Conditions.Written("Ready", "True", "ReconciliationSucceeded", "applied", 3L,
                    "2026-01-01T00:00:00Z", null)));

    @Test
    void aStatusReadBackFromTheServerIsTheRecordWritten() throws Exception {
        // As the apiserver answers it: the numbers parse as ints, not the longs written.
        JsonNode served = JSON.readTree(DeclaredStatusBody.of(FULL).toString());
        assertEquals(FULL, DeclaredStateStatus.of(served));
    }

    @Test
    void aFieldTheRecordDoesNotHoldIsLeftOutOfTheBody() {
        JsonNode body = DeclaredStatusBody.of(new DeclaredStateStatus(3L, null, null, null, null, null, null, null));
        assertEquals(List.of("observedGeneration"), List.copyOf(iterable(body)));
        assertFalse(DeclaredStatusBody.of(FULL).path("orphans").get(0).has("deleteAfter"), "no grace period: omitted");
    }

    @Test
    void readyIsTheReadyConditionsStatusOrUnknown() {
        assertEquals("True", FULL.ready());
        DeclaredStateStatus none = DeclaredStateStatus.of(JSON.createObjectNode());
        assertEquals("Unknown", none.ready());
        assertNull(none.condition("Ready"));
        assertNull(none.orphans(), "a status without orphans has none listed");
    }

    private static List<String> iterable(JsonNode o) {
        List<String> names = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
