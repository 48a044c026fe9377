package dev.rekon.modules.release;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What Rekon reads of a Kyma ModuleReleaseMeta ({@value KymaModules#API_VERSION}), made once from the object by
 * {@link #of(JsonNode)}: the only place that knows its JSON paths.
 *
 * @param namespace       its namespace, or null
 * @param resourceVersion the version the view was made from, or null
 * @param module          {@code spec.moduleName}, or null when it names none
 * @param channels        channel name to version, in the order {@code spec.channels[]} lists them
 */
public record ReleaseMetaView(String namespace, String name, String resourceVersion, String module,
        Map<String, String> channels) {

    public ReleaseMetaView {
        channels = Collections.unmodifiableMap(new LinkedHashMap<>(channels));
    }

    public static ReleaseMetaView of(JsonNode meta) {
        JsonNode m = meta.path("metadata");
        Map<String, String> channels = new LinkedHashMap<>();
        for (JsonNode c : meta.path("spec").path("channels")) {
            channels.put(c.path("channel").asText(), c.path("version").asText());
        }
        return new ReleaseMetaView(m.path("namespace").asText(null), m.path("name").asText(),
                m.path("resourceVersion").asText(null),
                ModuleTemplateView.first(meta.path("spec").path("moduleName").asText(""), null), channels);
    }
}
