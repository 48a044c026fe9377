package dev.rekon.promotions.plan;

import static dev.rekon.promotions.plan.Promotions.promotion;
import static dev.rekon.promotions.plan.Promotions.request;
import static dev.rekon.promotions.plan.Promotions.source;
import static dev.rekon.promotions.plan.Promotions.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.rekon.core.Outcome;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.StageView;
import dev.rekon.rollouts.view.KpackImage;

/** Bad input: Ready False with a reason, the reply rejected with it, and nothing written to any stage. */
class ImagePromotionBadInputPlannerTest {

    private static final String HEAD = "metadata: {name: hello, namespace: demo, generation: 1}\nspec:\n  source: {image: hello}\n";

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no stages", HEAD + "  stages: []\n", null, null, PromotionSpecChecks.NO_STAGES, "at least one"),
                Arguments.of("duplicate names", HEAD + "  stages: [{name: a, imageDeploys: [hello]},"
                        + " {name: a, promotedImage: hello, imageDeploys: [hello]}]\n", null, null,
                        PromotionSpecChecks.DUPLICATE_STAGE, "'a'"),
                Arguments.of("a soak that is no duration", HEAD + "  stages: [{name: a, imageDeploys: [hello], soak: soon}]\n",
                        null, null, PromotionSpecChecks.BAD_SOAK, "'soon'"),
                Arguments.of("a later stage without its PromotedImage", HEAD + "  stages: [{name: a, imageDeploys: [hello]},"
                        + " {name: b, imageDeploys: [hello]}]\n", null, null, PromotionSpecChecks.NO_PROMOTED_IMAGE, "stage b"),
                Arguments.of("a namespace Rekon may not act in", HEAD + "  stages: [{name: a, namespace: forbidden,"
                        + " promotedImage: hello, imageDeploys: [hello]}]\n", null, null,
                        PromotionSpecChecks.NAMESPACE_NOT_ALLOWED, "forbidden"),
                Arguments.of("the source Image missing", HEAD + "  stages: [{name: a, imageDeploys: [hello]}]\n",
                        "no source", null, PromotionSpecChecks.SOURCE_MISSING, "demo/hello"),
                Arguments.of("the kubeconfig Secret missing", HEAD + "  stages: [{name: a, cluster: {secretRef: {name: k}},"
                        + " promotedImage: hello, imageDeploys: [hello]}]\n", null,
                        StageView.refused("a", "KubeconfigSecretNotFound", "Secret demo/k does not exist"),
                        "KubeconfigSecretNotFound", "demo/k"),
                Arguments.of("a listed ImageDeploy missing", HEAD + "  stages: [{name: a, imageDeploys: [hello, other]}]\n",
                        null, null, PromotionSpecChecks.IMAGE_DEPLOY_MISSING, "demo/other"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isRefusedWithItsReasonAndWritesToNoStage(String what, String yaml, String noSource, StageView stage,
            String reason, String named) {
        ImagePromotionView p = promotion(yaml);
        Map<String, StageView> stages = new LinkedHashMap<>();
        p.spec().stages().forEach(s -> stages.put(s.name(), stage != null ? stage
                : view(s.name(), null, Promotions.running(Promotions.build(1), 60), null)));
        KpackImage src = noSource != null ? null : source(1);
        PromotionRequest base = request(p, src, null, null, null, null);
        ImagePromotionPlan plan = new ImagePromotionPlanner().plan(new PromotionRequest(p, src, stages, null,
                base.namespaceAllowed(), base.now()));
        ImagePromotionPlan.Refused refused = assertInstanceOf(ImagePromotionPlan.Refused.class, plan);
        assertEquals(Outcome.REJECTED, refused.reply().outcome());
        assertEquals(reason, refused.reply().reason());
        assertTrue(refused.reply().message().contains(named), refused.reply().message());
        assertEquals("False", refused.status().condition("Ready").status());
        assertEquals(reason, refused.status().condition("Ready").reason());
    }
}
