package dev.rekon.cluster;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Times every Kubernetes API call in {@code rekon.api.calls} (tags {@code method}, {@code resource} as
 * {@code group/plural[/subresource]}, {@code status}; a send that went out again because its connection was closed
 * under it is {@code status=connection-closed}) and counts the apiserver's throttling answers (429, from priority and
 * fairness or max-inflight) in {@code rekon.api.throttled}: the client retries those after the server's
 * {@code Retry-After}, so a throttled call is late, not failed. Requests the client's own limit held back are
 * counted in {@code rekon.api.rate.limited} (and for how long, {@code .seconds}). It produces the application's
 * client as Quarkus would (same Config and serialization), and every other client Rekon makes ({@link #client}:
 * the impersonating ones), each with these interceptors, the shared {@link ClientRateLimit}
 * ({@code rekon.kubernetes.qps} and {@code .burst}, by default sized from {@code rekon.reconcile.parallelism}) and
 * {@link KubeHttpClients}' HTTP clients; object names never become tags.
 */
@Singleton
public class ApiCallMetrics implements Interceptor {

    static final String TIMER = "rekon.api.calls";
    /** The calls of clients Rekon makes for other clusters (a promotion's stages): their own apiservers' load. */
    static final String STAGE_TIMER = "rekon.stage.api.calls";
    static final String THROTTLED = "rekon.api.throttled";
    static final String RATE_LIMITED = "rekon.api.rate.limited";
    static final long MAX_RETRY_AFTER_SECONDS = 30;
    /** Requests a second per worker of the queue, and twice that as burst, unless set. */
    static final int QPS_PER_WORKER = 100;

    /**
     * When the call started, carried on the request itself: the request an interceptor sees afterwards is a
     * rebuilt copy (another id), and the apiserver ignores headers it does not know.
     */
    static final String START_HEADER = "X-Rekon-Started-Nanos";

    private final MeterRegistry registry;
    private final ClientRateLimit rateLimit;
    private final String timer;
    private volatile KubernetesSerialization serialization;
    private volatile ApiCallMetrics stages;

    @Inject
    ApiCallMetrics(MeterRegistry registry,
            @ConfigProperty(name = "rekon.reconcile.parallelism", defaultValue = "8") int parallelism,
            @ConfigProperty(name = "rekon.kubernetes.qps") Optional<Double> qps,
            @ConfigProperty(name = "rekon.kubernetes.burst") Optional<Integer> burst) {
        this.registry = registry;
        double perSecond = qps.orElse((double) QPS_PER_WORKER * parallelism);
        this.rateLimit = new ClientRateLimit(perSecond, burst.orElse((int) Math.ceil(2 * perSecond)));
        this.timer = TIMER;
        FunctionCounter.builder(RATE_LIMITED, rateLimit, ClientRateLimit::heldBack)
                .description("requests held back by the client's QPS/burst limit").register(registry);
        FunctionCounter.builder(RATE_LIMITED + ".seconds", rateLimit, ClientRateLimit::heldSeconds)
                .description("time requests were held back by the client's QPS/burst limit").register(registry);
    }

    private ApiCallMetrics(ApiCallMetrics of, String timer) {
        this.registry = of.registry;
        this.rateLimit = null;
        this.timer = timer;
        this.serialization = of.serialization;
    }

    /** For tests: the default limits of the default parallelism. */
    ApiCallMetrics(MeterRegistry registry) {
        this(registry, 8, Optional.empty(), Optional.empty());
    }

    @Produces
    @Singleton
    KubernetesClient kubernetesClient(KubernetesSerialization serialization, Config config) {
        this.serialization = serialization;
        return client(config);
    }

    /** A client of Rekon's on {@code config} (another identity, say): timed, counted and rate-limited as all are. */
    public KubernetesClient client(Config config) {
        KubernetesClientBuilder b = new KubernetesClientBuilder().withConfig(config);
        if (serialization != null) {
            b = b.withKubernetesSerialization(serialization);
        }
        return b.withHttpClientFactory(new KubeHttpClients(resent -> record(resent, "connection-closed")))
                .withHttpClientBuilderConsumer(h -> {
                    if (rateLimit != null) {
                        h.addOrReplaceInterceptor("rekon-rate-limit", rateLimit);
                    }
                    h.addOrReplaceInterceptor("rekon-api-metrics", this);
                }).build();
    }

    /**
     * A client of another cluster (a promotion stage's, from its kubeconfig): timed and counted as Rekon's own, in
     * {@value #STAGE_TIMER} with the same tags, so that its calls are seen without being taken for this cluster's.
     * It takes no token from this cluster's {@link ClientRateLimit}: that bucket is sized for this apiserver.
     */
    public KubernetesClient stageClient(Config config) {
        ApiCallMetrics s = stages;
        if (s == null) {
            synchronized (this) {
                if (stages == null) {
                    stages = new ApiCallMetrics(this, STAGE_TIMER);
                }
                s = stages;
            }
        }
        return s.client(config);
    }

    ClientRateLimit rateLimit() {
        return rateLimit;
    }

    void close(@Disposes KubernetesClient client) {
        client.close();
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        builder.setHeader(START_HEADER, Long.toString(System.nanoTime()));
    }

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<java.nio.ByteBuffer>> consumer) {
        record(request, String.valueOf(response.code()));
    }

    /**
     * A 429 goes back to the client's own retry (at most {@code requestRetryBackoffLimit} sends, 10 by default) only
     * once the server's {@code Retry-After} has passed (1 s when it names none, at most
     * {@value #MAX_RETRY_AFTER_SECONDS} s), without holding a thread: the client alone would send it again after its
     * backoff, not the server's word. Every send of it, throttled again or not, passes here, within the same budget.
     */
    @Override
    public CompletableFuture<Boolean> afterFailure(HttpRequest.Builder builder, HttpResponse<?> response,
            RequestTags tags) {
        if (response.code() != 429) {
            return CompletableFuture.completedFuture(false);
        }
        long seconds = retryAfterSeconds(response.header("Retry-After"));
        return CompletableFuture.supplyAsync(() -> false, CompletableFuture.delayedExecutor(seconds, TimeUnit.SECONDS));
    }

    static long retryAfterSeconds(String header) {
        try {
            return Math.max(0, Math.min(MAX_RETRY_AFTER_SECONDS, Long.parseLong(header == null ? "1" : header.trim())));
        } catch (NumberFormatException dateOrJunk) {
            return 1;
        }
    }

    @Override
    public void afterConnectionFailure(HttpRequest request, Throwable failure) {
        record(request, "connection-failure");
    }

    private void record(HttpRequest request, String status) {
        if ("429".equals(status)) {
            registry.counter(THROTTLED, "method", request.method(), "resource", resource(request.uri())).increment();
        }
        String start = request.header(START_HEADER);
        if (start == null) {
            return;
        }
        Timer.builder(timer).tag("method", request.method()).tag("resource", resource(request.uri()))
                .tag("status", status).register(registry).record(System.nanoTime() - Long.parseLong(start), TimeUnit.NANOSECONDS);
    }

    /** {@code /apis/apps/v1/namespaces/x/deployments/y} → {@code apps/deployments}; core kinds keep no group. */
    static String resource(URI uri) {
        String[] s = uri.getPath().replaceAll("^/+", "").split("/");
        int rest;
        String group;
        if (s.length >= 2 && s[0].equals("api")) {
            group = "";
            rest = 2;
        } else if (s.length >= 3 && s[0].equals("apis")) {
            group = s[1] + "/";
            rest = 3;
        } else {
            return "other";
        }
        if (s.length > rest + 2 && s[rest].equals("namespaces")) {
            rest += 2;
        }
        if (s.length <= rest) {
            return group.isEmpty() ? "discovery" : group + "discovery";
        }
        String resource = group + s[rest];
        return s.length > rest + 2 ? resource + "/" + s[rest + 2] : resource;
    }
}
