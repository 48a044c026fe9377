package dev.rekon.buildpacks.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One group of an order (kpack's {@code OrderEntry}): the buildpacks that detect together. */
@RegisterForReflection
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record OrderEntry(List<ModuleRef> group) {

    public OrderEntry {
        group = group == null ? List.of() : List.copyOf(group);
    }
}
