package dev.rekon.modules.lifecycle.plan;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.SemVer;
import dev.rekon.manifests.plan.ManifestChecks;
import dev.rekon.manifests.inventory.Inventory;

/**
 * What keeps a release from being applied at all, checked before any write: objects outside the namespaces Rekon
 * may act in, objects that belong to someone else, and the upgrade policy (forward only unless declared, at most
 * one major version per step, the maintenance window).
 */
final class ReleaseChecks {

    /** A refusal: the reason (CamelCase) and what to fix. */
    record Refusal(String reason, String message) {
    }

    private ReleaseChecks() {
    }

    static Optional<Refusal> scope(List<ObjectNode> desired, NamespacePolicy namespaces, String module) {
        return ManifestChecks.scope(desired, namespaces, "module " + module, "rekon.namespaces")
                .map(r -> new Refusal(r.reason(), r.message()));
    }

    /** Objects that exist, are not this module's, and are no Namespace that existed before (those are shared). */
    static Optional<Refusal> conflicts(List<ObjectNode> desired, LifecycleViews v) {
        List<ObjectRef> taken = taken(desired, v);
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Refusal("Conflict", "module " + v.key().module() + " would take over " + names(taken)
                + ", which already exist" + (taken.size() == 1 ? "s" : "") + " and belong" + (taken.size() == 1 ? "s" : "")
                + " to someone else; Rekon never takes over objects it did not create: delete or rename them, then"
                + " the module installs; nothing of this release was applied"));
    }

    /** The desired objects that exist and are someone else's: what {@link #conflicts} refuses the release for. */
    static List<ObjectRef> taken(List<ObjectNode> desired, LifecycleViews v) {
        Inventory inv = v.inventory();
        return ManifestChecks.taken(desired, v::live,
                live -> v.key().module().equals(live.owner()) || inv != null && inv.entry(live.ref()).isPresent());
    }

    static Optional<Refusal> version(Inventory inv, Release r, LifecycleViews v) {
        if (inv == null || inv.version() == null || inv.version().equals(r.version())) {
            return Optional.empty();
        }
        Optional<SemVer> from = SemVer.tryParse(inv.version());
        Optional<SemVer> to = SemVer.tryParse(r.version());
        if (from.isEmpty() || to.isEmpty()) {
            return Optional.of(new Refusal("VersionUnknown", "module " + r.manifest().module() + " runs " + inv.version()
                    + " and the release is " + r.version() + "; both must be semantic versions"));
        }
        if (to.get().compareTo(from.get()) < 0 && !r.intendedDowngrade()) {
            return Optional.of(new Refusal("DowngradeRefused", "module " + r.manifest().module() + " runs "
                    + from.get() + " and channel '" + r.channel() + "' offers the older " + to.get() + "; Rekon only moves"
                    + " modules forward. To downgrade on purpose, annotate ModuleTemplate " + r.template()
                    + " with rekon.dev/intended-downgrade: \"true\""));
        }
        if (Math.abs(to.get().major() - from.get().major()) > 1) {
            return Optional.of(new Refusal("MajorStepTooLarge", "module " + r.manifest().module() + " runs "
                    + from.get() + " and release " + to.get() + " is more than one major version away; release and"
                    + " install a " + (from.get().major() + Long.signum(to.get().major() - from.get().major()))
                    + ".x version first"));
        }
        if (v.window() != null && !v.window().contains(v.now())) {
            return Optional.of(new Refusal("OutsideMaintenanceWindow", "module " + r.manifest().module()
                    + " may change version only in the maintenance window " + v.window() + "; it upgrades after "
                    + v.window().nextOpening(v.now())));
        }
        return Optional.empty();
    }

    static String names(List<ObjectRef> refs) {
        return ManifestChecks.names(refs);
    }
}
