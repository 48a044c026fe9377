package dev.rekon.modules.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

import dev.rekon.core.SemVer;
import dev.rekon.modules.plan.ModulePlan.Apply;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.plan.ModulePlan.NoChange;
import dev.rekon.modules.plan.ModulePlan.Rejected;
import dev.rekon.modules.release.MaintenanceWindow;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Decides whether a module release reaches the module's Deployments, and with which patch. Releases move
 * forward only (unless the release declares an intended downgrade), by at most one major version, are
 * compared with the version each Deployment actually runs (also when the release switches its channel),
 * must be signed when signatures are required, and change versions only inside the maintenance window.
 * The same release twice plans no write. Suspended Deployments, and Deployments changed by hand while the
 * release is not newer than what they run, are left as they are ({@link ModuleHolds}).
 */
public final class ModuleUpdatePlanner {

    /** The configured rules: signatures required or not, and an optional maintenance window. */
    public record Policy(boolean requireSignature, Optional<MaintenanceWindow> window) {
    }

    /** The plan plus the versions the reply reports, and the Deployments left alone (suspended, changed by hand). */
    public record Decision(ModulePlan plan, String fromVersion, String toVersion, List<ModuleHolds.Hold> holds) {

        public Decision {
            holds = List.copyOf(holds);
        }

        public Decision(ModulePlan plan, String fromVersion, String toVersion) {
            this(plan, fromVersion, toVersion, List.of());
        }
    }

    private ModuleUpdatePlanner() {
    }

    public static Decision plan(ModuleRelease release, List<ModuleDeployment> installed, Policy policy, Instant now) {
        String to = release.version().toString();
        if (installed.isEmpty()) {
            return new Decision(notInstalled(release.module()), null, to);
        }
        String running = runningVersions(installed);
        Optional<Rejected> untrusted = checkSignature(release, policy);
        if (untrusted.isPresent()) {
            return new Decision(untrusted.get(), running, to);
        }
        List<ModuleDeployment> targets = installed.stream()
                .filter(d -> release.switchChannel() || d.channel().equals(release.channel())).toList();
        if (targets.isEmpty()) {
            return new Decision(new NoChange("NotOnFollowedChannel", "module " + release.module() + " follows channel(s) "
                    + new TreeSet<>(installed.stream().map(ModuleDeployment::channel).toList()) + "; release " + to
                    + " is on channel '" + release.channel() + "'; send a manual release on channel '"
                    + release.channel() + "' to switch the module to it"), running, to);
        }
        String from = runningVersions(targets);
        List<DeploymentPatch> patches = new ArrayList<>();
        List<ModuleHolds.Hold> holds = new ArrayList<>();
        for (ModuleDeployment d : targets) {
            Optional<ModuleHolds.Hold> hold = ModuleHolds.of(release, d);
            if (hold.isPresent()) {
                holds.add(hold.get());
                continue;
            }
            Optional<Rejected> refused = checkDeployment(release, d, policy, now);
            if (refused.isPresent()) {
                return new Decision(refused.get(), from, to, holds);
            }
            patch(release, d).ifPresent(patches::add);
        }
        if (patches.isEmpty()) {
            return new Decision(!holds.isEmpty() ? ModuleHolds.noChange(holds) : new NoChange("AlreadyAtVersion",
                    "module " + release.module() + " already runs " + to + " with the release's images on channel '"
                            + release.channel() + "'; nothing to do"), from, to, holds);
        }
        return new Decision(applied(release, targets, patches), from, to, holds);
    }

    private static Optional<Rejected> checkSignature(ModuleRelease release, Policy policy) {
        SignatureCheck sig = release.signature();
        if (sig.status() == SignatureCheck.Status.INVALID) {
            return Optional.of(new Rejected(sig.reason(), "release " + release.version() + " of module "
                    + release.module() + " from " + release.origin() + " is not trusted: " + sig.message()
                    + "; nothing was applied"));
        }
        if (sig.status() == SignatureCheck.Status.MISSING && policy.requireSignature()) {
            return Optional.of(new Rejected(sig.reason(), "release " + release.version() + " of module "
                    + release.module() + " from " + release.origin() + " carries no signature and "
                    + "rekon.modules.require-signature is on; sign the component descriptor (or the manual event)"
                    + " with a key whose public key Rekon is configured with"));
        }
        return Optional.empty();
    }

    private static Optional<Rejected> checkDeployment(ModuleRelease release, ModuleDeployment d, Policy policy,
            Instant now) {
        Optional<SemVer> parsed = SemVer.tryParse(d.version());
        if (parsed.isEmpty()) {
            return Optional.of(new Rejected("RunningVersionUnknown", d.ref() + " has no semantic version in label "
                    + ModuleDeployment.VERSION_LABEL + " ('" + d.version() + "'); set it to the version that runs"));
        }
        if (d.containerImages().keySet().stream().noneMatch(release.images()::containsKey)) {
            return Optional.of(new Rejected("NoMatchingContainers", "release " + release.version() + " names images for"
                    + " containers " + new TreeSet<>(release.images().keySet()) + " but " + d.ref() + " has containers "
                    + new TreeSet<>(d.containerImages().keySet()) + "; name the release's resources after the containers"));
        }
        SemVer running = parsed.get();
        SemVer target = release.version();
        int cmp = target.compareTo(running);
        if (patch(release, d).isEmpty()) {
            return Optional.empty();
        }
        boolean switching = !d.channel().equals(release.channel());
        if (cmp < 0 && !release.intendedDowngrade()) {
            return Optional.of(switching
                    ? new Rejected("ChannelSwitchDowngrade", "switching module " + release.module() + " from channel '"
                            + d.channel() + "' to '" + release.channel() + "' would take " + d.ref() + " from the "
                            + running + " it runs down to " + target + "; wait until '" + release.channel()
                            + "' offers " + running + " or later, or send the release with intendedDowngrade: true")
                    : new Rejected("DowngradeRefused", d.ref() + " runs " + running + " and release " + target
                            + " is older; Rekon only moves modules forward. To downgrade on purpose, mark the release "
                            + "as an intended downgrade (annotation rekon.dev/intended-downgrade: \"true\" on the "
                            + "ModuleTemplate, or intendedDowngrade: true in the manual event)"));
        }
        if (cmp != 0 && Math.abs(target.major() - running.major()) > 1) {
            return Optional.of(new Rejected("MajorStepTooLarge", d.ref() + " runs " + running + " and release " + target
                    + " is more than one major version away; Rekon moves at most one major version per step, so "
                    + "release and apply a " + (running.major() + Long.signum(target.major() - running.major()))
                    + ".x version first"));
        }
        if (policy.window().isPresent() && !policy.window().get().contains(now)) {
            MaintenanceWindow w = policy.window().get();
            return Optional.of(new Rejected("OutsideMaintenanceWindow", "module " + release.module() + " may change"
                    + " version only in the maintenance window " + w + "; send the release again after "
                    + w.nextOpening(now) + " (or change rekon.modules.maintenance-window)"));
        }
        return Optional.empty();
    }

    private static Optional<DeploymentPatch> patch(ModuleRelease release, ModuleDeployment d) {
        Map<String, String> images = new LinkedHashMap<>();
        release.images().forEach((container, image) -> {
            String current = d.containerImages().get(container);
            if (current != null && !current.equals(image)) {
                images.put(container, image);
            }
        });
        String version = release.version().toString();
        String newVersion = version.equals(d.version()) ? null : version;
        String newChannel = d.channel().equals(release.channel()) ? null : release.channel();
        if (images.isEmpty() && newVersion == null && newChannel == null) {
            return Optional.empty();
        }
        Map<String, String> applied = new LinkedHashMap<>();
        release.images().forEach((container, image) -> {
            if (d.containerImages().containsKey(container)) {
                applied.put(container, image);
            }
        });
        return Optional.of(new DeploymentPatch(d.ref(), d.resourceVersion(), images, newVersion, newChannel, null, null,
                applied, d.reportedChange() == null ? null : DeploymentPatch.REMOVE));
    }

    private static Apply applied(ModuleRelease release, List<ModuleDeployment> targets, List<DeploymentPatch> patches) {
        // Only the patched ones: a held Deployment (suspended, say) may carry any version label.
        SemVer lowest = targets.stream().filter(d -> patches.stream().anyMatch(p -> p.ref().equals(d.ref())))
                .map(d -> SemVer.parse(d.version())).min(SemVer::compareTo).orElseThrow();
        int cmp = release.version().compareTo(lowest);
        String reason = cmp > 0 ? "Upgraded" : cmp < 0 ? "Downgraded" : "ImagesUpdated";
        String switched = patches.stream().anyMatch(p -> p.channel() != null)
                ? " and switched to channel '" + release.channel() + "'" : "";
        return new Apply(patches, reason, "module " + release.module() + " set to " + release.version() + switched
                + " in " + patches.stream().map(p -> p.ref().toString()).collect(Collectors.joining(", "))
                + " (from " + release.origin() + ")");
    }

    public static NoChange notInstalled(String module) {
        return new NoChange("ModuleNotInstalled", "no Deployment is labelled " + ModuleDeployment.MODULE_LABEL + "="
                + module + " in the namespaces Rekon may act in; label the module's Deployments (and set "
                + ModuleDeployment.VERSION_LABEL + ") to let Rekon manage them");
    }

    /** The distinct versions the Deployments run, comma-separated; usually one. */
    public static String runningVersions(List<ModuleDeployment> deployments) {
        return String.join(",", new TreeSet<>(deployments.stream()
                .map(d -> d.version() == null ? "unknown" : d.version()).toList()));
    }
}
