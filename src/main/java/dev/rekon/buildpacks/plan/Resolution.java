package dev.rekon.buildpacks.plan;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.rekon.buildpacks.view.OrderEntry;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The outcome of resolving a Builder's {@code spec.order}: the resolved order and metadata, or why not. */
public sealed interface Resolution {

    /** Every group entry resolved; {@code metadata} lists each buildpack the builder contains once. */
    record Resolved(List<OrderEntry> order, List<Metadata> metadata) implements Resolution {
        public Resolved {
            order = List.copyOf(order);
            metadata = List.copyOf(metadata);
        }
    }

    /** The first entry that failed, with a CamelCase reason and kpack's message where kpack has one. */
    record Failed(String reason, String message) implements Resolution {
    }

    /** One entry of kpack's {@code status.builderMetadata}. */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    record Metadata(String id, String version, String homepage) {
    }
}
