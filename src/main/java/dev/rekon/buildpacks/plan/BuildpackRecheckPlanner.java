package dev.rekon.buildpacks.plan;

import java.util.Objects;

import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.core.ObjectRef;

/**
 * Decides, from one manifest HEAD, whether a Buildpack's or ClusterBuildpack's status needs the full read and
 * write of the event path: only when the digest its image points at moved from the one the status was read from
 * (or the one a previous pass saw converge, for an image index whose status names its platform manifest), when
 * the image became readable or unreadable for another reason, or when the status is of an older generation.
 */
public final class BuildpackRecheckPlanner {

    /** Whether the object's status is refreshed, and why. */
    public record Recheck(ObjectRef target, boolean refresh, String reason, String message) {
    }

    private BuildpackRecheckPlanner() {
    }

    /** @param seen the digest a previous pass found the status converged at for this image, or null */
    public static Recheck plan(RecheckView bp, ImageHead head, String seen) {
        if (!bp.current()) {
            return refresh(bp, "SpecChanged", "the status is of an older generation");
        }
        if (bp.image() == null) {
            return BuildpackStatusPlanner.NO_IMAGE.equals(bp.readyReason()) ? same(bp, "NoImage")
                    : refresh(bp, "NoImage", "it names no image any more");
        }
        if (head instanceof ImageHead.Unreadable u) {
            return u.reason().equals(bp.readyReason()) ? same(bp, u.reason())
                    : refresh(bp, "ImageUnreadable", bp.image() + " cannot be read: " + u.message());
        }
        String digest = ((ImageHead.Digest) head).digest();
        if (digest.equals(bp.digest()) || digest.equals(seen)) {
            return same(bp, "DigestUnchanged");
        }
        return refresh(bp, "DigestMoved", bp.image() + " now points at " + digest + "; the status was read from "
                + Objects.requireNonNullElse(bp.digest(), "no readable image"));
    }

    private static Recheck refresh(RecheckView bp, String reason, String message) {
        return new Recheck(bp.ref(), true, reason, bp.ref() + ": " + message);
    }

    private static Recheck same(RecheckView bp, String reason) {
        return new Recheck(bp.ref(), false, reason, bp.ref() + " is up to date");
    }
}
