package dev.rekon.modules.publish.plan;

import dev.rekon.modules.release.ReleaseMetaView;

/** A ModuleReleaseMeta as publication reads it: its view, and {@code spec.ocmComponentName} (null when none). */
public record PublishedMeta(ReleaseMetaView view, String ocmComponentName) {
}
