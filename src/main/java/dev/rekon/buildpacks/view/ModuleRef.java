package dev.rekon.buildpacks.view;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One member of an order group, as kpack writes it in statuses and labels: id, version, optional. */
@RegisterForReflection
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ModuleRef(String id, String version, @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean optional) {

    public String key() {
        return id + "@" + version;
    }
}
