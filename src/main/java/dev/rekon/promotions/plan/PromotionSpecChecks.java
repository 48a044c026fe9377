package dev.rekon.promotions.plan;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import dev.rekon.promotions.view.ImagePromotionSpec;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.StageView;

/**
 * Decides whether a promotion can be planned at all: bad input (the spec, a stage's Secret or kubeconfig, a
 * namespace Rekon may not act in, a listed ImageDeploy or the source Image missing) is the first problem found,
 * in spec order; a refused plan writes to no stage.
 */
final class PromotionSpecChecks {

    static final String NO_STAGES = "NoStages";
    static final String DUPLICATE_STAGE = "DuplicateStageName";
    static final String BAD_SOAK = "InvalidSoak";
    static final String NO_PROMOTED_IMAGE = "PromotedImageNotNamed";
    static final String NO_IMAGE_DEPLOYS = "NoImageDeploys";
    static final String NAMESPACE_NOT_ALLOWED = "StageNamespaceNotAllowed";
    static final String SOURCE_MISSING = "SourceImageNotFound";
    static final String IMAGE_DEPLOY_MISSING = "ImageDeployNotFound";

    /** One problem: a reason, as in a condition, and what to fix. */
    record Problem(String reason, String message) {
    }

    private PromotionSpecChecks() {
    }

    static Optional<Problem> check(PromotionRequest r) {
        return spec(r).or(() -> stages(r));
    }

    /** What the spec says, with the source Image read. */
    static Optional<Problem> spec(PromotionRequest r) {
        return beforeReads(r).or(() -> r.source() == null ? problem(SOURCE_MISSING, "kpack Image "
                + r.promotion().namespace() + "/" + r.promotion().spec().sourceImage() + " does not exist")
                : Optional.empty());
    }

    /** What the spec alone says, before anything is read: a stage with such a problem is never read. */
    static Optional<Problem> beforeReads(PromotionRequest r) {
        ImagePromotionSpec spec = r.promotion().spec();
        String home = r.promotion().namespace();
        if (spec.stages().isEmpty()) {
            return problem(NO_STAGES, "spec.stages is empty: list at least one stage");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < spec.stages().size(); i++) {
            PromotionStage s = spec.stages().get(i);
            if (!names.add(s.name())) {
                return problem(DUPLICATE_STAGE, "stage name '" + s.name() + "' is used twice: stage names must be unique");
            }
            if (Soak.parse(s.soak()).isEmpty()) {
                return problem(BAD_SOAK, "stage " + s.name() + ": soak '" + s.soak()
                        + "' is not a duration such as 30s, 10m or 1h30m");
            }
            boolean followsSource = i == 0 && !s.remote() && s.namespaceOr(home).equals(home);
            if (s.promotedImage() == null && !followsSource) {
                return problem(NO_PROMOTED_IMAGE, "stage " + s.name() + " names no promotedImage: only a first stage"
                        + " in the ImagePromotion's own cluster and namespace follows the kpack Image itself");
            }
            if (s.promotedImage() == null && s.approval() == PromotionStage.Approval.MANUAL) {
                return problem(NO_PROMOTED_IMAGE, "stage " + s.name() + " asks for approval but names no"
                        + " promotedImage: kpack writes the kpack Image, so there is nothing to hold");
            }
            if (s.imageDeploys().isEmpty()) {
                return problem(NO_IMAGE_DEPLOYS, "stage " + s.name() + " lists no imageDeploys: nothing could prove"
                        + " a build there");
            }
            if (!r.namespaceAllowed().test(s.namespaceOr(home))) {
                return problem(NAMESPACE_NOT_ALLOWED, "stage " + s.name() + ": Rekon may not act in namespace "
                        + s.namespaceOr(home) + " (rekon.namespaces)");
            }
        }
        return Optional.empty();
    }

    /** What reading each stage found: its Secret and kubeconfig, and the listed ImageDeploys. */
    private static Optional<Problem> stages(PromotionRequest r) {
        String home = r.promotion().namespace();
        for (PromotionStage s : r.promotion().spec().stages()) {
            StageView view = r.stages().get(s.name());
            if (view == null) {
                throw new IllegalArgumentException("stage " + s.name() + " was not read");
            }
            if (view.problem() != null) {
                return problem(view.problem(), "stage " + s.name() + ": " + view.problemMessage());
            }
            for (String idp : s.imageDeploys()) {
                if (!view.imageDeploys().containsKey(idp)) {
                    return problem(IMAGE_DEPLOY_MISSING, "stage " + s.name() + ": ImageDeploy " + s.namespaceOr(home)
                            + "/" + idp + " does not exist");
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Problem> problem(String reason, String message) {
        return Optional.of(new Problem(reason, message));
    }
}
