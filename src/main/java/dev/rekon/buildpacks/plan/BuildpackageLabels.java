package dev.rekon.buildpacks.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.OrderEntry;
import dev.rekon.registry.RegistryImage;

/**
 * Reads the buildpacks of a buildpackage image from its labels {@code io.buildpacks.buildpackage.metadata}
 * and {@code io.buildpacks.buildpack.layers}, taking each layer's digest and size from the manifest by the
 * diffID the label names. Sorted by id@version, as kpack lists them.
 */
public final class BuildpackageLabels {

    public static final String METADATA = "io.buildpacks.buildpackage.metadata";
    public static final String LAYERS = "io.buildpacks.buildpack.layers";
    public static final String NOT_A_BUILDPACKAGE = "NotABuildpackage";
    public static final String INVALID = "InvalidBuildpackage";

    private static final ObjectMapper JSON = new ObjectMapper();

    private BuildpackageLabels() {
    }

    /** Thrown with a reason and a message saying what is wrong with the image. */
    public static final class Problem extends RuntimeException {
        public final String reason;

        Problem(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    /** @param storeImage the image as the resource names it, recorded in each entry's {@code storeImage} */
    public static List<BuildpackEntry> read(RegistryImage image, String storeImage) {
        Map<String, String> labels = image.labels();
        JsonNode pkg = label(labels, METADATA, storeImage);
        JsonNode layers = label(labels, LAYERS, storeImage);
        BuildpackEntry.Buildpackage buildpackage = new BuildpackEntry.Buildpackage(
                text(pkg, "id"), text(pkg, "version"), text(pkg, "homepage"));
        List<BuildpackEntry> out = new ArrayList<>();
        layers.fields().forEachRemaining(byId -> byId.getValue().fields().forEachRemaining(
                byVersion -> out.add(entry(image, storeImage, buildpackage, byId.getKey(), byVersion.getKey(),
                        byVersion.getValue()))));
        out.sort(Comparator.comparing(BuildpackEntry::key));
        return out;
    }

    private static BuildpackEntry entry(RegistryImage image, String storeImage, BuildpackEntry.Buildpackage pkg,
            String id, String version, JsonNode info) {
        String diffId = text(info, "layerDiffID");
        RegistryImage.Layer layer = image.layerByDiffId(diffId).orElseThrow(() -> new Problem(INVALID,
                "buildpack '" + id + "@" + version + "' names layer diffID '" + diffId + "', which image '" + storeImage
                        + "' does not have; rebuild the buildpackage"));
        try {
            List<OrderEntry> order = JSON.convertValue(info.path("order"), JSON.getTypeFactory()
                    .constructCollectionType(List.class, OrderEntry.class));
            List<BuildpackEntry.Stack> stacks = JSON.convertValue(info.path("stacks"), JSON.getTypeFactory()
                    .constructCollectionType(List.class, BuildpackEntry.Stack.class));
            return new BuildpackEntry(id, version, pkg, new BuildpackEntry.StoreImage(storeImage), diffId,
                    layer.digest(), layer.size(), text(info, "api"), text(info, "homepage"), order, stacks);
        } catch (IllegalArgumentException e) {
            throw new Problem(INVALID, "label " + LAYERS + " of image '" + storeImage + "' has an invalid order or stacks for '"
                    + id + "@" + version + "': " + e.getMessage());
        }
    }

    private static JsonNode label(Map<String, String> labels, String name, String image) {
        String value = labels.get(name);
        if (value == null) {
            throw new Problem(NOT_A_BUILDPACKAGE, "image '" + image + "' has no label " + name
                    + "; is it a buildpackage (pack buildpack package)?");
        }
        try {
            JsonNode node = JSON.readTree(value);
            if (!node.isObject()) {
                throw new Problem(INVALID, "label " + name + " of image '" + image + "' is not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new Problem(INVALID, "label " + name + " of image '" + image + "' is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? null : v.asText();
    }
}
