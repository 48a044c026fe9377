package dev.rekon.declared.apply;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.manifests.inventory.InventoryCodec;

/**
 * The {@code status} a {@link DeclaredStateStatus} writes, the one place it becomes JSON: each field it holds, a
 * null one left out. Sent as a merge patch, a field left out stays as the server has it; the status a plan
 * decides carries every field of the status it was built on, so what it holds is the whole status.
 */
public final class DeclaredStatusBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DeclaredStatusBody() {
    }

    public static ObjectNode of(DeclaredStateStatus status) {
        ObjectNode next = JSON.createObjectNode();
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
