package dev.rekon.modules;

import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;

/** What a module event asks {@link ModuleService} to bring in line, parsed by {@link ModuleFunctions}. */
public sealed interface ModuleInput {

    /** A ModuleReleaseMeta was added or changed; {@code object} null when the event only named it. */
    record ReleaseMetaChanged(String namespace, String name, ReleaseMetaView object) implements ModuleInput {
    }

    /** A ModuleTemplate was added or changed; {@code object} null when the event only named it. */
    record TemplateChanged(String namespace, String name, ModuleTemplateView object) implements ModuleInput {
    }

    /** A ModuleReleaseMeta or ModuleTemplate was deleted: installed modules keep running as they are. */
    record Withdrawn(String kind, String namespace, String name) implements ModuleInput {
    }

    /** A release to apply under the upgrade policy (manual event or registry push). */
    record Release(ModuleRelease release) implements ModuleInput {
    }

    /** Scale the module's Deployments back to the replicas they had before it was disabled. */
    record Enable(String module) implements ModuleInput {
    }

    /** Scale the module's Deployments to zero, remembering their replicas. */
    record Disable(String module) implements ModuleInput {
    }
}
