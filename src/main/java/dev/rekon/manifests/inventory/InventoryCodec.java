package dev.rekon.manifests.inventory;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;

/**
 * The one codec of an {@link Inventory}, in the two forms it is stored in, byte for byte as earlier versions wrote
 * them: a module's JSON text in its ConfigMap's {@value #KEY} key ({@link #write}, {@link #read}), and a
 * DeclaredState's {@code status.inventory.entries} in Flux's form ({@link #ids}, {@link #fromIds}): {@code {id, v}}
 * with {@code id = <namespace>_<name>_<group>_<kind>} (no part of which may hold an underscore) and {@code v} the
 * version applied. Used only where the inventory is read from or written to the server.
 */
public final class InventoryCodec {

    public static final String KEY = "inventory.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private InventoryCodec() {
    }

    public static String write(Inventory inventory) {
        ObjectNode root = JSON.createObjectNode().put("module", inventory.owner()).put("version", inventory.version())
                .put("channel", inventory.channel()).put("template", inventory.template());
        ArrayNode objects = root.putArray("objects");
        for (Inventory.Entry e : inventory.objects()) {
            ObjectNode o = objects.addObject().put("apiVersion", e.ref().apiVersion()).put("kind", e.ref().kind())
                    .put("name", e.ref().name());
            if (e.ref().namespace() != null) {
                o.put("namespace", e.ref().namespace());
            }
            if (e.created()) {
                o.put("created", true);
            }
            if (e.defaultCr()) {
                o.put("defaultCr", true);
            }
        }
        return root.toString();
    }

    /** @throws IllegalStateException when the text is not an inventory (edited by hand) */
    public static Inventory read(String text, String resourceVersion) {
        try {
            JsonNode root = JSON.readTree(text);
            List<Inventory.Entry> entries = new ArrayList<>();
            for (JsonNode o : root.path("objects")) {
                entries.add(new Inventory.Entry(new ObjectRef(o.path("apiVersion").asText(), o.path("kind").asText(),
                        o.hasNonNull("namespace") ? o.get("namespace").asText() : null, o.path("name").asText()),
                        o.path("created").asBoolean(false), o.path("defaultCr").asBoolean(false)));
            }
            return new Inventory(root.path("module").asText(), text(root, "version"), text(root, "channel"),
                    text(root, "template"), entries, resourceVersion);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the module inventory is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String text(JsonNode root, String field) {
        return root.hasNonNull(field) ? root.get(field).asText() : null;
    }

    /** Flux's id of an object: {@code <namespace>_<name>_<group>_<kind>}. */
    public static String id(ObjectRef ref) {
        return (ref.namespace() == null ? "" : ref.namespace()) + "_" + ref.name() + "_"
                + Identity.group(ref.apiVersion()) + "_" + ref.kind();
    }

    /** The entries in Flux's form, {@code [{id, v}]}. */
    public static ArrayNode ids(List<Inventory.Entry> entries) {
        ArrayNode out = JSON.createArrayNode();
        for (Inventory.Entry e : entries) {
            String apiVersion = e.ref().apiVersion();
            out.addObject().put("id", id(e.ref())).put("v", apiVersion.substring(apiVersion.indexOf('/') + 1));
        }
        return out;
    }

    /** The entries Flux's form holds; one whose id names no object (edited by hand) is skipped. */
    public static List<Inventory.Entry> fromIds(JsonNode entries) {
        List<Inventory.Entry> out = new ArrayList<>();
        for (JsonNode e : entries) {
            String[] p = e.path("id").asText().split("_", -1);
            if (p.length != 4) {
                continue;
            }
            String version = e.path("v").asText("v1");
            out.add(Inventory.Entry.of(new ObjectRef(p[2].isEmpty() ? version : p[2] + "/" + version, p[3],
                    p[0].isEmpty() ? null : p[0], p[1])));
        }
        return List.copyOf(out);
    }
}
