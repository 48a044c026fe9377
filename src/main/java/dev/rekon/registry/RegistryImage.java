package dev.rekon.registry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An image manifest read from a registry together with its config blob: the manifest digest, the layers
 * (compressed digest and size) and the config, whose {@code rootfs.diff_ids} pair up with the layers by index.
 */
public record RegistryImage(ImageReference reference, String digest, String mediaType, List<Layer> layers, JsonNode config) {

    public RegistryImage {
        layers = List.copyOf(layers);
    }

    /** One layer as the manifest lists it. */
    public record Layer(String digest, long size, String mediaType) {
    }

    /** The image's labels ({@code config.Labels}); empty when it has none. */
    public Map<String, String> labels() {
        Map<String, String> out = new LinkedHashMap<>();
        config.path("config").path("Labels").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** The layer whose uncompressed content has this diffID, found by its index in {@code rootfs.diff_ids}. */
    public Optional<Layer> layerByDiffId(String diffId) {
        JsonNode ids = config.path("rootfs").path("diff_ids");
        for (int i = 0; i < ids.size() && i < layers.size(); i++) {
            if (ids.get(i).asText().equals(diffId)) {
                return Optional.of(layers.get(i));
            }
        }
        return Optional.empty();
    }
}
