package dev.rekon.modules.publish.plan;

import java.util.Map;

import dev.rekon.modules.release.ReleaseMetaView;

/**
 * A ModuleReleaseMeta as publication reads it: its view, {@code spec.ocmComponentName} (null when none), and its
 * annotations (where promotions keep what soaks since when, and what each channel's promotion waits for).
 */
public record PublishedMeta(ReleaseMetaView view, String ocmComponentName, Map<String, String> annotations) {

    public PublishedMeta {
        annotations = Map.copyOf(annotations);
    }

    public PublishedMeta(ReleaseMetaView view, String ocmComponentName) {
        this(view, ocmComponentName, Map.of());
    }
}
