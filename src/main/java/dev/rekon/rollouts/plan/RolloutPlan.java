package dev.rekon.rollouts.plan;

import dev.rekon.core.Outcome;
import dev.rekon.rollouts.view.ImageDeployStatus;

/**
 * What to do for one ImageDeploy. Every plan carries the reason and message of the reply, and the
 * ImageDeploy status to write, or null when the status already says the same (no write).
 */
public sealed interface RolloutPlan {

    String reason();

    String message();

    ImageDeployStatus status();

    Outcome outcome();

    /** Create the missing Deployment (owned by the ImageDeploy). */
    record Create(NewDeployment deployment, String reason, String message, ImageDeployStatus status) implements RolloutPlan {
        @Override
        public Outcome outcome() {
            return Outcome.APPLIED;
        }
    }

    /** Patch only the images of the named containers (guarded by the resourceVersion planned from). */
    record PatchImages(ImagePatch patch, String reason, String message, ImageDeployStatus status) implements RolloutPlan {
        @Override
        public Outcome outcome() {
            return Outcome.APPLIED;
        }
    }

    /** The Deployment stays as it is; the status may still need to record why. */
    record NoChange(String reason, String message, ImageDeployStatus status) implements RolloutPlan {
        @Override
        public Outcome outcome() {
            return Outcome.UNCHANGED;
        }
    }

    /** The ImageDeploy cannot be rolled out as written; the status says what to fix. */
    record Rejected(String reason, String message, ImageDeployStatus status) implements RolloutPlan {
        @Override
        public Outcome outcome() {
            return Outcome.REJECTED;
        }
    }
}
