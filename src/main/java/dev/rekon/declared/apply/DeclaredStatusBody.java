package dev.rekon.declared.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.manifests.inventory.InventoryCodec;

/**
 * The {@code status} a {@link DeclaredStateStatus} writes: the status as the DeclaredState has it, with every field
 * the plan holds set over it (a null one kept as it is).
 */
public final class DeclaredStatusBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DeclaredStatusBody() {
    }

    /** {@code current} is the status the plan was made from. */
    public static ObjectNode of(JsonNode current, DeclaredStateStatus status) {
        ObjectNode next = current.isObject() ? ((ObjectNode) current).deepCopy() : JSON.createObjectNode();
        if (status.observedGeneration() != null) {
            next.put("observedGeneration", status.observedGeneration());
        }
        if (status.revision() != null) {
            next.put("revision", status.revision());
        }
        if (status.lastAttemptedRevision() != null) {
            next.put("lastAttemptedRevision", status.lastAttemptedRevision());
        }
        if (status.inventory() != null) {
            next.putObject("inventory").set("entries", InventoryCodec.ids(status.inventory()));
        }
        if (status.objectCount() != null) {
            next.put("objectCount", status.objectCount());
        }
        if (status.orphans() != null) {
            next.set("orphans", JSON.valueToTree(status.orphans()));
        }
        if (status.orphanCount() != null) {
            next.put("orphanCount", status.orphanCount());
        }
        if (status.conditions() != null) {
            next.set("conditions", JSON.valueToTree(status.conditions()));
        }
        return next;
    }
}
