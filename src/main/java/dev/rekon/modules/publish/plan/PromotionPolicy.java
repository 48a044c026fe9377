package dev.rekon.modules.publish.plan;

import java.time.Instant;
import java.util.Optional;

import dev.rekon.core.SemVer;
import dev.rekon.modules.release.MaintenanceWindow;
import dev.rekon.modules.release.SignatureCheck;

/**
 * The policy every channel move after publication answers to, by hand ({@link PromotionPlanner}) or by a soak rule
 * ({@link SoakPlanner}), pure: the version was published by Rekon and, with signatures required, its descriptor
 * still verifies; a channel never moves back nor more than one major version at a time; and it moves only inside
 * {@code rekon.modules.publish.maintenance-window}, when one is set.
 */
public final class PromotionPolicy {

    public static final String OUTSIDE_WINDOW = "OutsideMaintenanceWindow";

    /** Why a move may not happen: a reason and a message saying what to do. */
    public record Refusal(String reason, String message) {
    }

    private PromotionPolicy() {
    }

    /** The version's ModuleTemplate must be Rekon's, and verify when signatures are required. */
    public static Optional<Refusal> verification(String namespace, String module, String version,
            PublishedTemplate template, SignatureCheck signature, boolean requireSignature) {
        String name = namespace + "/" + module + "-" + version;
        if (template == null || template.componentDigest() == null) {
            return Optional.of(new Refusal("VersionNotPublished", "module " + module + " " + version
                    + " was not published by Rekon (no ModuleTemplate " + name + " with a component digest);"
                    + " publish it first"));
        }
        if (requireSignature && (signature == null || signature.status() != SignatureCheck.Status.VERIFIED)) {
            return Optional.of(new Refusal(signature == null ? "SignatureMissing" : signature.reason(), "ModuleTemplate "
                    + name + " does not verify as rekon.modules.require-signature requires"
                    + (signature == null ? "" : ": " + signature.message())));
        }
        return Optional.empty();
    }

    /** Forward only, one major version at most, from what the channel offers ({@code current}, null: nothing). */
    public static Optional<Refusal> step(String module, String channel, String current, String version) {
        Optional<SemVer> at = SemVer.tryParse(current);
        Optional<SemVer> to = SemVer.tryParse(version);
        if (at.isEmpty() || to.isEmpty()) {
            return Optional.empty();
        }
        if (at.get().compareTo(to.get()) > 0) {
            return Optional.of(new Refusal("DowngradeRefused", "channel " + channel + " of module " + module
                    + " offers " + current + ", newer than " + version + "; a channel never moves back"));
        }
        if (to.get().major() - at.get().major() > 1) {
            return Optional.of(new Refusal("MajorStepTooLarge", "channel " + channel + " of module " + module
                    + " offers " + current + " and " + version + " is more than one major version away; promote"
                    + " a version of the major in between first"));
        }
        return Optional.empty();
    }

    /** Inside the window (always, without one); else when it opens next. */
    public static Optional<Refusal> window(Optional<MaintenanceWindow> window, Instant now, String what) {
        if (window.isEmpty() || window.get().contains(now)) {
            return Optional.empty();
        }
        return Optional.of(new Refusal(OUTSIDE_WINDOW, what + " waits for the maintenance window "
                + window.get() + " (rekon.modules.publish.maintenance-window), which opens next at "
                + window.get().nextOpening(now)));
    }
}
