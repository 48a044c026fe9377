package dev.rekon.promotions.plan;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.rekon.cluster.Conditions;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotedImageStatus;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionStatus;
import dev.rekon.promotions.view.StageDeploy;
import dev.rekon.promotions.view.StagePhase;
import dev.rekon.promotions.view.StageStatus;
import dev.rekon.promotions.view.StageView;
import dev.rekon.promotions.view.VerifyJob;
import dev.rekon.rollouts.view.KpackImage;

/** The fixture of the promotion planner's tables: a three-stage promotion and the views of its stages. */
public final class Promotions {

    public static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public static final String THREE_STAGES = """
            metadata: {name: hello, namespace: demo, uid: p1, resourceVersion: "10", generation: 1}
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
              - {name: prod, cluster: {secretRef: {name: prod-kubeconfig}}, namespace: demo, promotedImage: hello,
                 imageDeploys: [hello], approval: Manual}
              rollback: %s
            """;

    private Promotions() {
    }

    public static Build build(long n) {
        return new Build("registry.local/hello@sha256:" + String.format("%064x", n), n);
    }

    public static KpackImage source(long n) {
        Build b = build(n);
        return new KpackImage("demo", "hello", "img-uid", b.image(), n, null, true, null);
    }

    public static ImagePromotionView promotion(String rollback, List<StageStatus> stages) {
        try {
            ImagePromotionView p = ImagePromotionView.fromJson(YAML.readTree(THREE_STAGES.formatted(rollback)));
            return withStatus(p, new PromotionStatus(1L, stages, List.of(), ready()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static ImagePromotionView promotion(String yaml) {
        try {
            return ImagePromotionView.fromJson(YAML.readTree(yaml));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static ImagePromotionView withStatus(ImagePromotionView p, PromotionStatus status) {
        return new ImagePromotionView(p.namespace(), p.name(), p.uid(), p.resourceVersion(), p.generation(), p.spec(),
                status);
    }

    public static List<Conditions.Written> ready() {
        return Conditions.set(null, Conditions.Condition.isTrue("Ready", "Reconciled",
                "every stage could be read and planned"), 1, NOW.minusSeconds(3600));
    }

    public static StageStatus stage(String name, Build b, StagePhase phase, Instant since, Build lastProven) {
        return new StageStatus(name, b == null ? null : b.image(), b == null ? null : b.buildCounter(), phase, since,
                lastProven == null ? null : lastProven.image(), lastProven == null ? null : lastProven.buildCounter(),
                null, null, null);
    }

    /** An ImageDeploy running {@code b}: Ready and RolledOut as given, each changed {@code secondsAgo}. */
    public static StageDeploy deploy(Build b, String ready, String rolledOut, long secondsAgo) {
        String at = NOW.minusSeconds(secondsAgo).toString();
        return new StageDeploy("hello", b == null ? null : b.image(),
                new Conditions.Written("Ready", ready, "False".equals(ready) ? "ProgressDeadlineExceeded" : "Applied",
                        null, 1L, at, null),
                new Conditions.Written("RolledOut", rolledOut, null, null, 1L, at, null));
    }

    public static StageDeploy running(Build b, long secondsAgo) {
        return deploy(b, "True", "True", secondsAgo);
    }

    public static PromotedImageView promoted(Build b, long writes) {
        return new PromotedImageView("demo", "hello", "pi-uid", "rv" + writes, 1,
                new PromotedImageStatus(1L, b.image(), writes, new PromotedImageStatus.Source("demo", "hello",
                        b.buildCounter(), null, b.digest()), List.of()));
    }

    public static StageView view(String stage, PromotedImageView promoted, StageDeploy deploy, VerifyJob job) {
        Map<String, StageDeploy> deploys = new LinkedHashMap<>();
        if (deploy != null) {
            deploys.put("hello", deploy);
        }
        return new StageView(stage, null, null, promoted, deploys, job);
    }

    /** The request: views of dev, staging and prod (null: a stage with nothing in it yet). */
    public static PromotionRequest request(ImagePromotionView p, KpackImage source, StageView dev, StageView staging,
            StageView prod, Approval approval) {
        Map<String, StageView> stages = new LinkedHashMap<>();
        stages.put("dev", dev != null ? dev : view("dev", null, deploy(null, "True", "True", 3600), null));
        stages.put("staging", staging != null ? staging : view("staging", null, deploy(null, "True", "True", 3600), null));
        stages.put("prod", prod != null ? prod : view("prod", null, deploy(null, "True", "True", 3600), null));
        return new PromotionRequest(p, source, stages, approval, ns -> !ns.equals("forbidden"), NOW);
    }

    public static List<StageStatus> stages(StageStatus... s) {
        return new ArrayList<>(List.of(s));
    }
}
