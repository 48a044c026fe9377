package dev.rekon.promotions.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/** The typed views of the two kinds, made from objects as the apiserver returns them. */
class ImagePromotionViewTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    static JsonNode yaml(String text) throws Exception {
        return YAML.readTree(text);
    }

    @Test
    void readsTheSpecOfThreeStages() throws Exception {
        ImagePromotionView p = ImagePromotionView.fromJson(yaml("""
                apiVersion: rekon.dev/v1alpha1
                kind: ImagePromotion
                metadata: {name: hello, namespace: demo, uid: u1, resourceVersion: "7", generation: 2}
                spec:
                  source: {image: hello}
                  stages:
                  - {name: dev, imageDeploys: [hello], soak: 30s}
                  - name: staging
                    cluster: {secretRef: {name: staging-kubeconfig}}
                    namespace: demo
                    promotedImage: hello
                    imageDeploys: [hello]
                    soak: 10m
                    verify: {jobTemplate: {spec: {template: {spec: {containers: [{name: v, image: busybox}]}}}}}
                  - {name: prod, cluster: {secretRef: {name: prod-kubeconfig, key: config}}, namespace: demo,
                     promotedImage: hello, imageDeploys: [hello], approval: Manual}
                  rollback: Automatic
                """));
        assertEquals("hello", p.spec().sourceImage());
        assertEquals(ImagePromotionSpec.Rollback.AUTOMATIC, p.spec().rollback());
        List<PromotionStage> stages = p.spec().stages();
        assertEquals(List.of("dev", "staging", "prod"), stages.stream().map(PromotionStage::name).toList());
        assertFalse(stages.get(0).remote());
        assertEquals("demo", stages.get(0).namespaceOr("demo"));
        assertNull(stages.get(0).promotedImage());
        assertEquals(new SecretKeyRef("staging-kubeconfig", "kubeconfig"), stages.get(1).cluster());
        assertTrue(stages.get(1).verifyJob().isObject());
        assertEquals(new SecretKeyRef("prod-kubeconfig", "config"), stages.get(2).cluster());
        assertEquals(PromotionStage.Approval.MANUAL, stages.get(2).approval());
        assertEquals(PromotionStage.Approval.AUTOMATIC, stages.get(1).approval());
        assertEquals(PromotionStatus.NONE, p.status());
    }

    @Test
    void readsTheStatusItWrites() throws Exception {
        PromotionStatus s = PromotionStatus.of(yaml("""
                observedGeneration: 3
                stages:
                - {name: dev, image: "r/hello@sha256:aa", buildCounter: 4, phase: Soaking,
                   since: "2026-01-01T00:00:00Z", lastProven: "r/hello@sha256:99", lastProvenBuildCounter: 3}
                history:
                - {stage: dev, image: "r/hello@sha256:aa", buildCounter: 4, phase: Promoting, at: "2026-01-01T00:00:00Z"}
                conditions:
                - {type: Ready, status: "True", reason: Promoting}
                """));
        StageStatus dev = s.stage("dev");
        assertEquals(StagePhase.Soaking, dev.phase());
        assertEquals(new Build("r/hello@sha256:aa", 4L), dev.build());
        assertEquals(new Build("r/hello@sha256:99", 3L), dev.proven());
        assertEquals(Instant.parse("2026-01-01T00:00:00Z"), dev.since());
        assertEquals(StagePhase.Empty, s.stage("prod").phase());
        assertEquals(1, s.history().size());
        assertEquals("True", s.condition("Ready").status());
    }

    @Test
    void aPromotedImageSaysWhatAKpackImageSays() throws Exception {
        PromotedImageView v = PromotedImageView.fromJson(yaml("""
                metadata: {name: hello, namespace: demo, resourceVersion: "5"}
                status:
                  latestImage: "r/hello@sha256:aa"
                  buildCounter: 4
                  source: {namespace: demo, image: hello, buildCounter: 2, stage: dev, digest: "sha256:aa"}
                  conditions: [{type: Ready, status: "True"}]
                """));
        assertEquals(new Build("r/hello@sha256:aa", 2L), v.status().build());
        assertEquals("dev", v.status().source().stage());
        assertEquals(dev.rekon.rollouts.view.KpackImage.fromJson(yaml("""
                metadata: {name: hello, namespace: demo}
                status: {latestImage: "r/hello@sha256:aa", buildCounter: 4, conditions: [{type: Ready, status: "True"}]}
                """)).latestImage(), v.status().latestImage());
    }

    @Test
    void aBuildIsNamedByItsDigestWithOrWithoutTheRepository() {
        Build b = new Build("registry.local/hello@sha256:aa", 4L);
        assertTrue(b.namedBy("sha256:aa"));
        assertTrue(b.namedBy("other.local/hello@sha256:aa"));
        assertFalse(b.namedBy("registry.local/hello@sha256:bb"));
        assertTrue(new Build("r@sha256:bb", 3L).olderThan(b));
        assertFalse(new Build("r@sha256:bb", null).olderThan(b));
    }
}
