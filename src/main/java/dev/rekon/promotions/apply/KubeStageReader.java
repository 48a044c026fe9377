package dev.rekon.promotions.apply;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.Conditions;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.ObjectRef;
import dev.rekon.promotions.plan.VerifyJobs;
import dev.rekon.promotions.view.Build;
import dev.rekon.promotions.view.ImagePromotionView;
import dev.rekon.promotions.view.PromotedImageView;
import dev.rekon.promotions.view.PromotionNames;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.StageDeploy;
import dev.rekon.promotions.view.StageView;
import dev.rekon.promotions.view.VerifyJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Reads one stage for a plan, through {@link StageClients}: its PromotedImage, each listed ImageDeploy with its
 * Deployment, and the verify Job of the stage's build. An ImageDeploy's {@code RolledOut} condition is taken when
 * it has one; otherwise its Deployment says it (observed its generation, every replica updated and available).
 */
@ApplicationScoped
public class KubeStageReader {

    @Inject
    StageClients clients;

    @Inject
    ObjectMapper mapper;

    StageView read(ImagePromotionView p, PromotionStage stage, String followed, Build current) {
        String ns = stage.namespaceOr(p.namespace());
        StageAccess access = clients.of(p.namespace(), stage);
        if (access instanceof StageAccess.Refused r) {
            return StageView.refused(stage.name(), r.reason(), r.message());
        }
        KubernetesClient client = ((StageAccess.Reached) access).client();
        String where = " in stage " + stage.name();
        JsonNode promotedNode = stage.promotedImage() == null ? null
                : get(client, PromotionNames.promoted(ns, stage.promotedImage()), where, () -> client
                        .genericKubernetesResources(PromotionResources.PROMOTED).inNamespace(ns)
                        .withName(stage.promotedImage()).get());
        PromotedImageView promoted = promotedNode == null ? null : PromotedImageView.fromJson(promotedNode);
        Map<String, StageDeploy> deploys = new LinkedHashMap<>();
        for (String name : stage.imageDeploys()) {
            JsonNode idp = get(client, new ObjectRef("rekon.dev/v1alpha1", "ImageDeploy", ns, name), where,
                    () -> client.genericKubernetesResources(PromotionResources.IMAGE_DEPLOYS).inNamespace(ns)
                            .withName(name).get());
            if (idp != null) {
                deploys.put(name, deploy(client, ns, name, idp, followed, where));
            }
        }
        Build build = promoted != null && promoted.status().build() != null ? promoted.status().build() : current;
        VerifyJob job = stage.verifyJob() == null || build == null ? null
                : job(client, ns, VerifyJobs.name(p.name(), stage.name(), build), where);
        return new StageView(stage.name(), null, null, promoted, deploys, job);
    }

    private StageDeploy deploy(KubernetesClient client, String ns, String name, JsonNode idp, String followed,
            String where) {
        JsonNode status = idp.path("status");
        String running = null;
        for (JsonNode applied : status.path("images")) {
            if (followed.equals(applied.path("name").asText())) {
                running = applied.path("image").asText(null);
            }
        }
        Conditions.Written ready = written(status.path("conditions"), "Ready");
        Conditions.Written rolledOut = written(status.path("conditions"), "RolledOut");
        if (rolledOut == null) {
            String deployment = status.path("deployment").asText(name);
            Deployment d = KubeErrors.call(new ObjectRef("apps/v1", "Deployment", ns, deployment), "reading Deployment "
                    + ns + "/" + deployment + where, () -> client.apps().deployments().inNamespace(ns)
                            .withName(deployment).get());
            rolledOut = d == null ? null : RolledOutFromDeployment.of(mapper.valueToTree(d));
        }
        return new StageDeploy(name, running, ready, rolledOut);
    }

    private VerifyJob job(KubernetesClient client, String ns, String name, String where) {
        Job job = KubeErrors.call(new ObjectRef("batch/v1", "Job", ns, name), "reading Job " + ns + "/" + name + where,
                () -> client.batch().v1().jobs().inNamespace(ns).withName(name).get());
        if (job == null) {
            return null;
        }
        JsonNode status = mapper.valueToTree(job).path("status");
        JsonNode failed = Conditions.find(status.path("conditions"), "Failed");
        if (status.path("succeeded").asInt(0) > 0) {
            return new VerifyJob(ns, name, VerifyJob.State.SUCCEEDED, null);
        }
        if (failed != null && "True".equals(failed.path("status").asText())) {
            return new VerifyJob(ns, name, VerifyJob.State.FAILED, failed.path("reason").asText(null));
        }
        return new VerifyJob(ns, name, VerifyJob.State.RUNNING, null);
    }

    private JsonNode get(KubernetesClient client, ObjectRef ref, String where,
            java.util.function.Supplier<GenericKubernetesResource> call) {
        GenericKubernetesResource r = KubeErrors.call(ref, "reading " + ref + where, call);
        return r == null ? null : mapper.valueToTree(r);
    }

    private static Conditions.Written written(JsonNode conditions, String type) {
        return Conditions.read(conditions).stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }

    /** Whether a Deployment's rollout is complete, and since when, as its status tells. */
    static final class RolledOutFromDeployment {
        static Conditions.Written of(JsonNode d) {
            JsonNode s = d.path("status");
            long generation = d.path("metadata").path("generation").asLong(0);
            int replicas = d.path("spec").path("replicas").asInt(1);
            JsonNode available = Conditions.find(s.path("conditions"), "Available");
            JsonNode progressing = Conditions.find(s.path("conditions"), "Progressing");
            boolean done = s.path("observedGeneration").asLong(-1) >= generation
                    && s.path("updatedReplicas").asInt(0) >= replicas && s.path("availableReplicas").asInt(0) >= replicas
                    && s.path("replicas").asInt(0) <= replicas
                    && available != null && "True".equals(available.path("status").asText());
            String at = latest(available == null ? null : available.path("lastTransitionTime").asText(null),
                    progressing == null ? null : progressing.path("lastUpdateTime").asText(null));
            boolean gaveUp = progressing != null && "False".equals(progressing.path("status").asText())
                    && StageDeploy.DEADLINE.equals(progressing.path("reason").asText());
            return new Conditions.Written("RolledOut", done ? "True" : "False", done ? "RolloutComplete"
                    : gaveUp ? StageDeploy.DEADLINE : "RollingOut", gaveUp ? progressing.path("message").asText(null)
                            : null, generation, at, null);
        }

        private static String latest(String a, String b) {
            if (a == null || b == null) {
                return a == null ? b : a;
            }
            return Instant.parse(a).isAfter(Instant.parse(b)) ? a : b;
        }
    }
}
