package dev.rekon.declared.plan;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.manifests.Identity;

/**
 * A DeclaredState's inventory as its status keeps it, in Flux's form: {@code {id, v}} entries with
 * {@code id = <namespace>_<name>_<group>_<kind>} (no part of which may hold an underscore) and {@code v} the
 * version applied.
 */
public final class InventoryIds {

    private InventoryIds() {
    }

    public static String id(ObjectRef ref) {
        return (ref.namespace() == null ? "" : ref.namespace()) + "_" + ref.name() + "_"
                + Identity.group(ref.apiVersion()) + "_" + ref.kind();
    }

    public static List<ObjectRef> read(JsonNode status) {
        List<ObjectRef> refs = new ArrayList<>();
        for (JsonNode e : status.path("inventory").path("entries")) {
            String[] p = e.path("id").asText().split("_", -1);
            if (p.length != 4) {
                continue;
            }
            String version = e.path("v").asText("v1");
            refs.add(new ObjectRef(p[2].isEmpty() ? version : p[2] + "/" + version, p[3], p[0].isEmpty() ? null : p[0],
                    p[1]));
        }
        return refs;
    }

    public static List<DeclaredStateStatus.Entry> entries(List<ObjectRef> refs) {
        List<DeclaredStateStatus.Entry> entries = new ArrayList<>();
        for (ObjectRef r : refs) {
            String v = r.apiVersion().contains("/") ? r.apiVersion().substring(r.apiVersion().indexOf('/') + 1)
                    : r.apiVersion();
            entries.add(new DeclaredStateStatus.Entry(id(r), v));
        }
        return List.copyOf(entries);
    }
}
