package dev.rekon.modules;

import java.util.List;
import java.util.function.Predicate;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ModuleRelease;

/**
 * Names one module image swap for the reconcile loop: a release to bring to the module's Deployments, or an
 * enable/disable of all of them. A module spans namespaces; its Deployments are read where Rekon may act.
 */
public sealed interface ModuleKey {

    String module();

    /**
     * A release for the Deployments of its module that {@code within} keeps (all, for an event; one channel in the
     * resync's scope, for a resync). {@code known}: the Deployments the caller already read (a resync's list),
     * used for the first attempt; null reads them.
     */
    record Release(ModuleRelease release, List<ModuleDeployment> known, Predicate<ModuleDeployment> within)
            implements ModuleKey {

        public Release {
            known = known == null ? null : List.copyOf(known);
        }

        @Override
        public String module() {
            return release.module();
        }
    }

    /** Enable (restore the remembered replicas) or disable (scale to zero) every Deployment of the module. */
    record Switch(String module, boolean enable) implements ModuleKey {
    }

    /** A release for every Deployment of its module, read when the attempt starts. */
    static ModuleKey release(ModuleRelease release) {
        return new Release(release, null, d -> true);
    }
}
