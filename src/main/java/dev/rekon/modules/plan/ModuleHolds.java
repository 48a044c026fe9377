package dev.rekon.modules.plan;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.rekon.core.SemVer;
import dev.rekon.modules.plan.ModuleDeployment.ManualChange;
import dev.rekon.modules.release.ModuleRelease;

/**
 * Decides when Rekon leaves a module Deployment as it is although a release would change it: the Deployment is
 * suspended (annotation {@value ModuleDeployment#SUSPEND_ANNOTATION}: "true"), or someone changed its images by
 * hand and the release is not newer than the version it runs. Manual changes are reported, not fought; the next
 * newer release rolls forward over them.
 */
public final class ModuleHolds {

    public static final String SUSPENDED = "Suspended";
    public static final String MANUAL_CHANGE = "ManualChange";

    /** Why one Deployment is left alone; {@code changes} lists the manual changes, if that is why. */
    public record Hold(ModuleDeployment deployment, String reason, String message, List<ManualChange> changes) {

        public Hold {
            changes = List.copyOf(changes);
        }

        /** True when this manual change is not yet the one recorded as reported on the Deployment. */
        public boolean needsReport() {
            return !changes.isEmpty()
                    && !ModuleDeployment.changeKey(changes).equals(deployment.reportedChange());
        }
    }

    private ModuleHolds() {
    }

    public static Optional<Hold> of(ModuleRelease release, ModuleDeployment d) {
        if (d.suspended()) {
            return Optional.of(new Hold(d, SUSPENDED, d.ref() + " is suspended (annotation "
                    + ModuleDeployment.SUSPEND_ANNOTATION + ": \"true\"); release " + release.version()
                    + " of module " + release.module() + " waits until the annotation is removed", List.of()));
        }
        List<ManualChange> changes = d.manualChanges();
        Optional<SemVer> running = SemVer.tryParse(d.version());
        if (changes.isEmpty() || running.isEmpty() || release.version().compareTo(running.get()) > 0) {
            return Optional.empty();
        }
        return Optional.of(new Hold(d, MANUAL_CHANGE, manualChangeMessage(d, changes), changes));
    }

    /** What the reply, the Warning Event and {@code GET /modules} say about a Deployment changed by hand. */
    public static String manualChangeMessage(ModuleDeployment d, List<ManualChange> changes) {
        return d.ref() + " was changed by hand: " + changes.stream().map(ManualChange::toString)
                .collect(Collectors.joining("; ")) + " (release " + d.version() + "); Rekon leaves it as it is"
                + " until a release newer than " + d.version();
    }

    /** The plan when every Deployment a release targets is held: nothing to write, and why. */
    static ModulePlan.NoChange noChange(List<Hold> holds) {
        return new ModulePlan.NoChange(holds.get(0).reason(), holds.stream().map(Hold::message)
                .collect(Collectors.joining("; ")));
    }
}
