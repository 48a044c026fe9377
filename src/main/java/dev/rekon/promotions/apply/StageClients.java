package dev.rekon.promotions.apply;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.rekon.cluster.ApiCallMetrics;
import dev.rekon.cluster.ConcurrentReads;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.ObjectRef;
import dev.rekon.promotions.view.PromotionStage;
import dev.rekon.promotions.view.SecretKeyRef;
import dev.rekon.promotions.watch.KubeconfigSecretFacet;
import dev.rekon.promotions.watch.StageSettled;
import dev.rekon.promotions.watch.StageWatches;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * Decides how each stage is reached. A stage in this cluster uses Rekon's own client; one in another cluster, a
 * client made from the kubeconfig in a Secret of the ImagePromotion's own namespace (never another's), kept while
 * the kubeconfig stays the same (by its SHA-256, so a rotated Secret gets a new client). The kubeconfig is never
 * logged nor put in a message: a bad one is named by its Secret and key only. Each kept client has the stage
 * cluster's watches ({@link StageWatches}), stopped when the client is dropped; a change they deliver that settles a
 * build there is told ({@link StageSettled}), naming the Secret the client came from. Remote calls time out quickly,
 * so an unreachable stage answers 503 while the event can still be redelivered.
 * <p>
 * Each kept client remembers when its Secret was last read and still gave it ({@link #confirmedSince}): a trigger
 * plans a stage it cannot write from that client's watches without reading the Secret, and a write reads the Secret
 * first unless its own attempt did. A read is answered by the Secret's own watch, with no call, where Rekon may
 * watch it by name ({@link KubeconfigSecretWatches}); where it may only {@code get} it, each read is a call. The
 * trade-off:
 * a rotated or deleted kubeconfig takes effect at the next plan that reads the stage's Secret (the stage's own
 * report or the one before it, an ImagePromotion event, a resync) or writes to the stage, not at every trigger; a
 * Secret found missing or unusable drops the client, so from then on every plan reads it and fails the stage.
 */
@ApplicationScoped
public class StageClients {

    static final String SECRET_NOT_FOUND = "KubeconfigSecretNotFound";
    static final String KEY_NOT_FOUND = "KubeconfigKeyNotFound";
    static final String INVALID = "KubeconfigInvalid";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final int TIMEOUT_MILLIS = 5_000;
    private static final ResourceDefinitionContext SECRETS = new ResourceDefinitionContext.Builder().withGroup("")
            .withVersion("v1").withPlural("secrets").withKind("Secret").withNamespaced(true).build();

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    ApiCallMetrics metrics;

    /** Rekon's own watches, which watch each kubeconfig Secret by its name (null in tables: none). */
    @Inject
    SharedWatches shared;

    @Inject
    KubeconfigSecretFacet kubeconfigSecrets;

    /** Told of each change a stage cluster's watch delivers that settles a build there (null in tables: none). */
    @Inject
    Event<StageSettled> settled;

    /**
     * A remote stage's client, and the watches made with it, which live and end with it; {@code confirmed}: when
     * ({@link System#nanoTime}) a read of its Secret last gave it.
     */
    private record Cached(String fingerprint, KubernetesClient client, StageWatches watches, long confirmed) {

        Cached confirmedNow() {
            return new Cached(fingerprint, client, watches, System.nanoTime());
        }

        void close() {
            watches.stop();
            client.close();
        }
    }

    private final Map<String, Cached> remote = new ConcurrentHashMap<>();

    public StageAccess of(String promotionNamespace, PromotionStage stage) {
        if (!stage.remote()) {
            return new StageAccess.Reached(here(), "this cluster");
        }
        return of(promotionNamespace, stage, secretRead(promotionNamespace, stage.cluster()).join());
    }

    /**
     * Rekon's own client, which a stage in this cluster is reached with. A method, not the field: this bean is
     * reached through its CDI proxy, whose own fields are never injected, so a read of {@code client} from another
     * bean gave null, and a stage here planned from rollouts' watch never matched the client it is reached with.
     */
    KubernetesClient here() {
        return client;
    }

    /**
     * The read of a remote stage's Secret, sent now, so that several stages' are read at once; answered with no call
     * while the Secret's watch holds it ({@link KubeconfigSecretWatches}).
     */
    ConcurrentReads.Pending<Secret> secretRead(String promotionNamespace, SecretKeyRef ref) {
        Optional<KubeconfigSecretWatches.Held> held = secretWatches().flatMap(w -> w.held(promotionNamespace,
                ref.name()));
        if (held.isPresent()) {
            return ConcurrentReads.answered(held.get().secret());
        }
        ObjectRef secret = new ObjectRef("v1", "Secret", promotionNamespace, ref.name());
        return ConcurrentReads.get(client, SECRETS, secret, Secret.class, "reading Secret " + promotionNamespace + "/"
                + ref.name(), () -> client.secrets().inNamespace(promotionNamespace).withName(ref.name()).get());
    }

    /** The kubeconfig Secrets' watches, of Rekon's shared ones (none in tables without them). */
    private Optional<KubeconfigSecretWatches> secretWatches() {
        return Optional.ofNullable(shared).map(s -> new KubeconfigSecretWatches(s, kubeconfigSecrets));
    }

    /**
     * How a remote stage is reached with the Secret as read ({@code null}: there is none). A refusal drops the client
     * kept for the Secret, so that no plan reaches the stage through it without reading the Secret again.
     */
    StageAccess of(String promotionNamespace, PromotionStage stage, Secret secret) {
        SecretKeyRef ref = stage.cluster();
        String where = "Secret " + promotionNamespace + "/" + ref.name();
        String cacheKey = cacheKey(promotionNamespace, ref);
        String text = secret == null ? null : value(secret, ref.key());
        if (text == null) {
            drop(cacheKey);
            return secret == null ? new StageAccess.Refused(SECRET_NOT_FOUND, where + " does not exist")
                    : new StageAccess.Refused(KEY_NOT_FOUND, where + " has no key '" + ref.key() + "'");
        }
        String fingerprint = sha256(text);
        Cached cached = remote.computeIfPresent(cacheKey, (k, c) -> c.fingerprint().equals(fingerprint)
                ? c.confirmedNow() : c);
        if (cached != null && cached.fingerprint().equals(fingerprint)) {
            return new StageAccess.Reached(cached.client(), where);
        }
        KubernetesClient made = build(text, metrics != null ? metrics::stageClient
                : config -> new KubernetesClientBuilder().withConfig(config).build());
        if (made == null) {
            drop(cacheKey);
            return new StageAccess.Refused(INVALID, "the kubeconfig in " + where + ", key '" + ref.key()
                    + "', does not parse as a kubeconfig with a cluster's server");
        }
        Cached previous = remote.put(cacheKey, new Cached(fingerprint, made, new StageWatches(made, mapper,
                d -> tell(new StageSettled(promotionNamespace, ref, d))), System.nanoTime()));
        if (previous != null) {
            previous.close();
        }
        return new StageAccess.Reached(made, where);
    }

    private void tell(StageSettled s) {
        if (settled != null) {
            settled.fire(s);
        }
    }

    private void drop(String cacheKey) {
        Cached dropped = remote.remove(cacheKey);
        if (dropped != null) {
            dropped.close();
        }
    }

    /**
     * The client kept for this Secret's key if a read of the Secret gave it at or after {@code nanos}
     * ({@link System#nanoTime}): the client a plan begun then may write with, no read of the Secret needed.
     */
    Optional<KubernetesClient> confirmedSince(String promotionNamespace, SecretKeyRef ref, long nanos) {
        Cached c = remote.get(cacheKey(promotionNamespace, ref));
        return c == null || c.confirmed() - nanos < 0 ? Optional.empty() : Optional.of(c.client());
    }

    /** The client a remote stage was last reached with through this Secret's key, while it is kept. */
    Optional<KubernetesClient> lastReached(String promotionNamespace, SecretKeyRef ref) {
        return Optional.ofNullable(remote.get(cacheKey(promotionNamespace, ref))).map(Cached::client);
    }

    /** The watches of the stage cluster a kept client reaches; empty once that client is no longer kept. */
    Optional<StageWatches> watches(KubernetesClient stageClient) {
        return remote.values().stream().filter(c -> c.client() == stageClient).findFirst().map(Cached::watches);
    }

    private static String cacheKey(String promotionNamespace, SecretKeyRef ref) {
        return promotionNamespace + "/" + ref.name() + "/" + ref.key();
    }

    private static String value(Secret secret, String key) {
        if (secret.getData() != null && secret.getData().get(key) != null) {
            try {
                return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return secret.getStringData() == null ? null : secret.getStringData().get(key);
    }

    /** A client from the kubeconfig text, or null when it is not one (its text is never part of an error). */
    static KubernetesClient build(String kubeconfig) {
        return build(kubeconfig, config -> new KubernetesClientBuilder().withConfig(config).build());
    }

    /** The same, the client made by {@code clients} from the kubeconfig's configuration. */
    static KubernetesClient build(String kubeconfig, Function<Config, KubernetesClient> clients) {
        try {
            JsonNode tree = YAML.readTree(kubeconfig);
            if (tree == null || !tree.path("clusters").isArray() || tree.path("clusters").isEmpty()
                    || tree.path("clusters").get(0).path("cluster").path("server").asText("").isBlank()) {
                return null;
            }
            Config config = new ConfigBuilder(Config.fromKubeconfig(kubeconfig)).withConnectionTimeout(TIMEOUT_MILLIS)
                    .withRequestTimeout(TIMEOUT_MILLIS * 2).withRequestRetryBackoffLimit(0).build();
            return clients.apply(config);
        } catch (Exception e) {
            return null;
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @PreDestroy
    void close() {
        remote.values().forEach(Cached::close);
    }
}
