package dev.rekon.modules.lifecycle.plan;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.manifest.ModuleManifest;

/**
 * The release a Kyma's module entry resolves to: the ModuleTemplate its channel's ModuleReleaseMeta names, and
 * that version's whole manifest. {@code manager} is the object the template's {@code spec.manager} names (null
 * when none).
 */
public record Release(String template, String version, String channel, boolean intendedDowngrade,
        ModuleManifest manifest, ObjectRef manager) {
}
