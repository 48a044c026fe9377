package dev.rekon.declared.intent;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.Conditions;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.manifests.inventory.InventoryCodec;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A DeclaredState's status, as read or as a plan writes it: the generation it was decided for, the revision
 * applied and the one last attempted, the inventory (stored as Flux's {@code {id, v}} entries: {@link InventoryCodec}),
 * the orphans, their counts, and the conditions. A null field is one the status does not have (and a write leaves
 * as it is).
 */
public record DeclaredStateStatus(Long observedGeneration, String revision, String lastAttemptedRevision,
        List<Inventory.Entry> inventory, Integer objectCount, List<Orphan> orphans, Integer orphanCount,
        List<Conditions.Written> conditions) {

    /** One entry of {@code status.orphans}: an object that left Git, since when, and when it is deleted (or null). */
    @RegisterForReflection
    @JsonPropertyOrder({ "apiVersion", "kind", "namespace", "name", "since", "deleteAfter" })
    public record Orphan(String apiVersion, String kind, String namespace, String name, String since,
            @JsonInclude(JsonInclude.Include.NON_NULL) String deleteAfter) {
    }

    /** Its condition of {@code type}, or null when it has none. */
    public Conditions.Written condition(String type) {
        return conditions == null ? null
                : conditions.stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }

    /** The status of its {@code Ready} condition, {@code Unknown} when it has none. */
    public String ready() {
        Conditions.Written ready = condition("Ready");
        return ready == null || ready.status() == null ? "Unknown" : ready.status();
    }

    /** The status as the DeclaredState holds it (a field of another type than the schema's counts as absent). */
    public static DeclaredStateStatus of(JsonNode status) {
        JsonNode generation = status.path("observedGeneration");
        JsonNode objects = status.path("objectCount");
        JsonNode orphans = status.path("orphanCount");
        JsonNode conditions = status.path("conditions");
        return new DeclaredStateStatus(generation.canConvertToLong() ? generation.asLong() : null,
                text(status.path("revision")), text(status.path("lastAttemptedRevision")),
                status.path("inventory").path("entries").isArray()
                        ? InventoryCodec.fromIds(status.path("inventory").path("entries")) : null,
                objects.canConvertToInt() ? objects.asInt() : null,
                list(status.path("orphans"), o -> new Orphan(text(o.path("apiVersion")), text(o.path("kind")),
                        text(o.path("namespace")), text(o.path("name")), text(o.path("since")),
                        text(o.path("deleteAfter")))),
                orphans.canConvertToInt() ? orphans.asInt() : null, conditions.isArray() ? Conditions.read(conditions) : null);
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? n.textValue() : null;
    }

    private static <T> List<T> list(JsonNode array, Function<JsonNode, T> entry) {
        if (!array.isArray()) {
            return null;
        }
        List<T> out = new ArrayList<>();
        array.forEach(n -> out.add(entry.apply(n)));
        return List.copyOf(out);
    }
}
