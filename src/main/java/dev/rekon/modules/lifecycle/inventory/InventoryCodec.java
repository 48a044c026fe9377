package dev.rekon.modules.lifecycle.inventory;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

/** The inventory as the JSON text kept in its ConfigMap's {@value #KEY} key. */
public final class InventoryCodec {

    public static final String KEY = "inventory.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private InventoryCodec() {
    }

    public static String write(Inventory inventory) {
        ObjectNode root = JSON.createObjectNode().put("module", inventory.module()).put("version", inventory.version())
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
}
