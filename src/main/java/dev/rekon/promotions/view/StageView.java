package dev.rekon.promotions.view;

import java.util.Map;

/**
 * One stage as read for a plan: why it could not be read ({@code problem}, a reason such as
 * {@code KubeconfigSecretMissing}, null when it was), its PromotedImage (null: none yet, or the stage has none),
 * the listed ImageDeploys found there (a missing one is absent), and the verify Job of the stage's current build
 * (null: none). An unreachable stage is no view: its read throws, and the event is answered 503.
 */
public record StageView(String stage, String problem, String problemMessage, PromotedImageView promotedImage,
        Map<String, StageDeploy> imageDeploys, VerifyJob verifyJob) {

    public StageView {
        imageDeploys = imageDeploys == null ? Map.of() : Map.copyOf(imageDeploys);
    }

    public static StageView refused(String stage, String problem, String message) {
        return new StageView(stage, problem, message, null, Map.of(), null);
    }
}
