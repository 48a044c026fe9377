package dev.rekon.promotions.apply;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.ConcurrentReads;
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
import dev.rekon.promotions.view.StageImageDeploy;
import dev.rekon.rollouts.view.RolloutNames;
import dev.rekon.rollouts.watch.ImageDeployIndex;
import dev.rekon.promotions.view.StageView;
import dev.rekon.promotions.view.VerifyJob;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Reads the stages for a plan, through {@link StageClients}: each one's PromotedImage, each listed ImageDeploy with
 * its Deployment, and the verify Job of the stage's build; the reads of all stages are sent at once
 * ({@link ConcurrentReads}). An ImageDeploy's {@code RolledOut} condition is taken when
 * it has one; otherwise its Deployment says it (observed its generation, every replica updated and available).
 */
@ApplicationScoped
public class KubeStageReader {

    @Inject
    StageClients clients;

    @Inject
    ObjectMapper mapper;

    @Inject
    ImageDeployIndex imageDeploys;

    StageView read(ImagePromotionView p, PromotionStage stage, String followed, Build current) {
        return readAll(p, List.of(new PromotionGateway.StageRead(stage, followed, current))).get(0).get();
    }

    /**
     * Every stage's reads sent at once: the remote stages' Secrets (in this cluster) and, each stage's client known,
     * its PromotedImage and ImageDeploys in its cluster, all stages at the same time. A remote stage reached before
     * is read with the client kept for its Secret at the same time as the Secret: those answers are taken only if
     * the Secret still gives that client (a rotated or removed kubeconfig discards them and reads again), so a
     * promotion waits for one round of reads, not two. Each view is taken in order as the plan walks the stages, and
     * a stage's failure reaches the plan only when its view is taken, so that a stage past one that stops the walk
     * never fails the plan (its answers are left unread).
     */
    List<Supplier<StageView>> readAll(ImagePromotionView p, List<PromotionGateway.StageRead> reads) {
        return readAll(p, reads, false);
    }

    /**
     * The same; {@code fromWatches}: a stage its watches hold whole is taken from them, no call sent to its cluster,
     * if the Secret still gives the client those watches belong to.
     */
    List<Supplier<StageView>> readAll(ImagePromotionView p, List<PromotionGateway.StageRead> reads,
            boolean fromWatches) {
        return readAll(p, reads, fromWatches, null);
    }

    /**
     * The same; {@code secretsRead} (null: all): the remote stages whose Secret is read. Another remote stage its
     * watches hold whole is taken from the watches of the client its Secret last gave, the Secret unread
     * ({@link StageClients}: the trade-off); one they do not hold is read as above, Secret first.
     */
    List<Supplier<StageView>> readAll(ImagePromotionView p, List<PromotionGateway.StageRead> reads,
            boolean fromWatches, Set<String> secretsRead) {
        List<Sent> held = reads.stream().map(r -> fromWatches ? watched(p, r) : null).toList();
        List<ConcurrentReads.Pending<Secret>> secrets = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            PromotionStage stage = reads.get(i).stage();
            boolean unread = secretsRead != null && !secretsRead.contains(stage.name()) && held.get(i) != null;
            secrets.add(stage.remote() && !unread ? clients.secretRead(p.namespace(), stage.cluster()) : null);
        }
        List<Sent> early = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            PromotionGateway.StageRead r = reads.get(i);
            early.add(held.get(i) != null || !r.stage().remote() ? held.get(i) : clients.lastReached(p.namespace(),
                    r.stage().cluster()).map(c -> sendQuietly(p, r, c)).orElse(null));
        }
        List<Supplier<StageView>> views = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            PromotionGateway.StageRead r = reads.get(i);
            Supplier<StageView> view;
            try {
                Sent sent = send(p, r, secrets.get(i), early.get(i));
                view = () -> taken(p, r, sent);
            } catch (RuntimeException e) {
                view = () -> {
                    throw e;
                };
            }
            views.add(view);
        }
        return views;
    }

    /**
     * The stages read again a moment after a first look in the same attempt read their Secrets: a remote stage is
     * read with the client kept for its Secret, which that look just confirmed (read again with its Secret when none
     * is kept); all stages' reads are sent at once.
     */
    List<Supplier<StageView>> readAgain(ImagePromotionView p, List<PromotionGateway.StageRead> reads) {
        List<Supplier<StageView>> views = new ArrayList<>();
        for (PromotionGateway.StageRead r : reads) {
            KubernetesClient kept = r.stage().remote() ? clients.lastReached(p.namespace(), r.stage().cluster())
                    .orElse(null) : null;
            if (kept == null) {
                views.add(readAll(p, List.of(r), false).get(0));
                continue;
            }
            try {
                Sent sent = send(p, r, kept);
                views.add(() -> taken(p, r, sent));
            } catch (RuntimeException e) {
                views.add(() -> {
                    throw e;
                });
            }
        }
        return views;
    }

    /** One stage's reads on their way, the stage as its watches hold it, or why the stage cannot be reached. */
    private record Sent(KubernetesClient client, StageAccess.Refused refused, ConcurrentReads.Pending<
            GenericKubernetesResource> promoted, Map<String, ConcurrentReads.Pending<GenericKubernetesResource>> deploys,
            StageView watched) {

        Sent(KubernetesClient client, StageAccess.Refused refused, ConcurrentReads.Pending<
                GenericKubernetesResource> promoted, Map<String, ConcurrentReads.Pending<GenericKubernetesResource>> deploys) {
            this(client, refused, promoted, deploys, null);
        }
    }

    /**
     * The stage as watched: a remote one by the watches of the client it was last reached with, one in this cluster
     * by rollouts' watch of its ImageDeploys (with rollouts' own status writes); null when they cannot tell it all.
     */
    private Sent watched(ImagePromotionView p, PromotionGateway.StageRead r) {
        PromotionStage stage = r.stage();
        String ns = stage.namespaceOr(p.namespace());
        if (stage.remote()) {
            return clients.lastReached(p.namespace(), stage.cluster()).flatMap(c -> clients.watches(c)
                    .flatMap(w -> w.view(stage, ns, r.followedName()))
                    .map(v -> new Sent(c, null, null, Map.of(), v))).orElse(null);
        }
        if (stage.promotedImage() != null || stage.verifyJob() != null) {
            return null;
        }
        Map<String, StageDeploy> deploys = new LinkedHashMap<>();
        for (String name : stage.imageDeploys()) {
            StageImageDeploy held = here(ns, name).orElse(null);
            if (held == null || held.rolledOut() == null) {
                return null;
            }
            deploys.put(name, held.following(r.followedName()));
        }
        return new Sent(clients.here(), null, null, Map.of(), new StageView(stage.name(), null, null, null, deploys,
                null));
    }

    /** An ImageDeploy of this cluster as rollouts' watch holds it, with rollouts' own status writes; empty: none. */
    Optional<StageImageDeploy> here(String namespace, String name) {
        return imageDeploys.seen(RolloutNames.GROUP, namespace, name).map(v -> StageImageDeploy.of(namespace, name,
                v.resourceVersion(), v.status()));
    }

    private Sent send(ImagePromotionView p, PromotionGateway.StageRead r, ConcurrentReads.Pending<Secret> secret,
            Sent early) {
        PromotionStage stage = r.stage();
        if (secret == null && stage.remote() && early != null && early.watched() != null) {
            return early;
        }
        StageAccess access = secret == null ? clients.of(p.namespace(), stage)
                : clients.of(p.namespace(), stage, secret.join());
        if (access instanceof StageAccess.Refused refused) {
            return new Sent(null, refused, null, Map.of());
        }
        KubernetesClient client = ((StageAccess.Reached) access).client();
        return early != null && early.client() == client ? early : send(p, r, client);
    }

    /** The reads sent with a kept client, or none if they cannot even be sent (then they are sent again). */
    private Sent sendQuietly(ImagePromotionView p, PromotionGateway.StageRead r, KubernetesClient client) {
        try {
            return send(p, r, client);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private Sent send(ImagePromotionView p, PromotionGateway.StageRead r, KubernetesClient client) {
        PromotionStage stage = r.stage();
        String ns = stage.namespaceOr(p.namespace());
        String where = " in stage " + stage.name();
        ConcurrentReads.Pending<GenericKubernetesResource> promoted = stage.promotedImage() == null ? null
                : read(client, PromotionResources.PROMOTED, PromotionNames.promoted(ns, stage.promotedImage()), where);
        Map<String, ConcurrentReads.Pending<GenericKubernetesResource>> deploys = new LinkedHashMap<>();
        for (String name : stage.imageDeploys()) {
            deploys.put(name, read(client, PromotionResources.IMAGE_DEPLOYS, new ObjectRef("rekon.dev/v1alpha1",
                    "ImageDeploy", ns, name), where));
        }
        return new Sent(client, null, promoted, deploys);
    }

    private StageView taken(ImagePromotionView p, PromotionGateway.StageRead r, Sent sent) {
        PromotionStage stage = r.stage();
        if (sent.refused() != null) {
            return StageView.refused(stage.name(), sent.refused().reason(), sent.refused().message());
        }
        if (sent.watched() != null) {
            return sent.watched();
        }
        KubernetesClient client = sent.client();
        String ns = stage.namespaceOr(p.namespace());
        String where = " in stage " + stage.name();
        JsonNode promotedNode = sent.promoted() == null ? null : tree(sent.promoted().join());
        PromotedImageView promoted = promotedNode == null ? null : PromotedImageView.fromJson(promotedNode);
        Map<String, StageDeploy> deploys = new LinkedHashMap<>();
        sent.deploys().forEach((name, pending) -> {
            JsonNode idp = tree(pending.join());
            if (idp != null) {
                deploys.put(name, deploy(client, ns, name, idp, r.followedName(), where));
            }
        });
        Build current = r.current();
        Build build = promoted != null && promoted.status().build() != null ? promoted.status().build() : current;
        VerifyJob job = stage.verifyJob() == null || build == null ? null
                : job(client, ns, VerifyJobs.name(p.name(), stage.name(), build), where);
        return new StageView(stage.name(), null, null, promoted, deploys, job);
    }

    private static ConcurrentReads.Pending<GenericKubernetesResource> read(KubernetesClient client,
            ResourceDefinitionContext resource, ObjectRef ref, String where) {
        return ConcurrentReads.get(client, resource, ref, GenericKubernetesResource.class, "reading " + ref + where,
                () -> client.genericKubernetesResources(resource).inNamespace(ref.namespace()).withName(ref.name())
                        .get());
    }

    private JsonNode tree(GenericKubernetesResource r) {
        return r == null ? null : mapper.valueToTree(r);
    }

    private StageDeploy deploy(KubernetesClient client, String ns, String name, JsonNode idp, String followed,
            String where) {
        StageImageDeploy read = StageImageDeploy.fromJson(idp);
        Conditions.Written rolledOut = read.rolledOut();
        if (rolledOut == null) {
            String deployment = read.deployment();
            Deployment d = KubeErrors.call(new ObjectRef("apps/v1", "Deployment", ns, deployment), "reading Deployment "
                    + ns + "/" + deployment + where, () -> client.apps().deployments().inNamespace(ns)
                            .withName(deployment).get());
            rolledOut = d == null ? null : RolledOutFromDeployment.of(mapper.valueToTree(d));
        }
        return new StageDeploy(name, read.images().get(followed), read.ready(), rolledOut);
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
