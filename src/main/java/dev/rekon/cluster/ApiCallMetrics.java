package dev.rekon.cluster;

import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Times every Kubernetes API call in {@code rekon.api.calls} (tags {@code method}, {@code resource} as
 * {@code group/plural[/subresource]}, {@code status}). It produces the application's client as Quarkus would
 * (same Config and serialization), with one interceptor added and {@link ChaChaFirst}'s cipher order; object names
 * never become tags.
 */
@Singleton
public class ApiCallMetrics implements Interceptor {

    static final String TIMER = "rekon.api.calls";

    /**
     * When the call started, carried on the request itself: the request an interceptor sees afterwards is a
     * rebuilt copy (another id), and the apiserver ignores headers it does not know.
     */
    static final String START_HEADER = "X-Rekon-Started-Nanos";

    private final MeterRegistry registry;

    ApiCallMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Produces
    @Singleton
    KubernetesClient kubernetesClient(KubernetesSerialization serialization, Config config) {
        return new KubernetesClientBuilder().withKubernetesSerialization(serialization).withConfig(config)
                .withHttpClientFactory(new ChaChaFirst())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("rekon-api-metrics", this)).build();
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

    @Override
    public void afterConnectionFailure(HttpRequest request, Throwable failure) {
        record(request, "connection-failure");
    }

    private void record(HttpRequest request, String status) {
        String start = request.header(START_HEADER);
        if (start == null) {
            return;
        }
        Timer.builder(TIMER).tag("method", request.method()).tag("resource", resource(request.uri()))
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
