package dev.rekon.buildpacks.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One buildpack a buildpackage image provides, in the shape of kpack v1alpha2 {@code status.buildpacks[]}:
 * {@code digest} and {@code size} are those of its (compressed) layer, {@code diffId} of the uncompressed one.
 */
@RegisterForReflection
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record BuildpackEntry(String id, String version, Buildpackage buildpackage, StoreImage storeImage,
        String diffId, String digest, long size, String api, String homepage, List<OrderEntry> order,
        List<Stack> stacks) {

    public BuildpackEntry {
        order = order == null ? List.of() : List.copyOf(order);
        stacks = stacks == null ? List.of() : List.copyOf(stacks);
    }

    public String key() {
        return id + "@" + version;
    }

    /** The buildpackage that carried a buildpack. */
    @RegisterForReflection
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Buildpackage(String id, String version, String homepage) {
    }

    /** The image a buildpack was read from, as the resource's spec names it. */
    @RegisterForReflection
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record StoreImage(String image) {
    }

    /** A stack a buildpack supports. */
    @RegisterForReflection
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Stack(String id, List<String> mixins) {
    }
}
