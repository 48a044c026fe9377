package dev.rekon.cluster;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpClient;
import io.fabric8.kubernetes.client.http.StandardWebSocketBuilder;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.fabric8.kubernetes.client.vertx.VertxHttpClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;

/**
 * One HTTP client of Rekon's Kubernetes clients: the client's own machinery (interceptors, its retries of 429s and
 * 5xx bounded by {@code requestRetryBackoffLimit}, timeouts) over a Vert.x client, deciding two things about each
 * single send. An error's body is read whole before the client sees it ({@link ErrorBody}), so that retrying it
 * cannot close a pooled connection another request is using. A send whose pooled connection was closed as it went
 * out ({@link KubeErrors#closedUnderneath}: the apiserver restarting or closing idle connections) goes out again, at
 * most {@value #CLOSED_RESENDS} times, each counted: the client retries an IOException, but Vert.x reports this as
 * its own exception. Sending again is safe because every write Rekon makes is guarded (resourceVersion, create).
 */
final class KubeHttpClient
        extends StandardHttpClient<VertxHttpClient<VertxHttpClientFactory>, VertxHttpClientFactory,
                VertxHttpClientBuilder<VertxHttpClientFactory>> {

    static final int CLOSED_RESENDS = 3;

    private final VertxHttpClient<VertxHttpClientFactory> vertx;
    private final Consumer<StandardHttpRequest> closedResend;

    KubeHttpClient(VertxHttpClientBuilder<VertxHttpClientFactory> builder, Consumer<StandardHttpRequest> closedResend) {
        this(builder, builder.build(), closedResend);
    }

    private KubeHttpClient(VertxHttpClientBuilder<VertxHttpClientFactory> builder,
            VertxHttpClient<VertxHttpClientFactory> vertx, Consumer<StandardHttpRequest> closedResend) {
        super(builder, vertx.getClosed());
        this.vertx = vertx;
        this.closedResend = closedResend;
    }

    @Override
    public CompletableFuture<HttpResponse<AsyncBody>> consumeBytesDirect(StandardHttpRequest request,
            AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        return send(request, consumer, 0);
    }

    private CompletableFuture<HttpResponse<AsyncBody>> send(StandardHttpRequest request,
            AsyncBody.Consumer<List<ByteBuffer>> consumer, int resend) {
        ErrorBody body = new ErrorBody(consumer);
        return vertx.consumeBytesDirect(request, body).handle((response, failure) -> {
            if (failure == null) {
                return HttpResponse.isSuccessful(response.code()) ? CompletableFuture.completedFuture(response)
                        : body.readWhole(response);
            }
            if (resend >= CLOSED_RESENDS || !KubeErrors.closedUnderneath(failure)
                    || request.body() instanceof StandardHttpRequest.InputStreamBodyContent) {
                return CompletableFuture.<HttpResponse<AsyncBody>>failedFuture(failure);
            }
            closedResend.accept(request);
            return CompletableFuture.runAsync(() -> {
            }, CompletableFuture.delayedExecutor(resend == 0 ? 0 : 50L << resend, TimeUnit.MILLISECONDS))
                    .thenCompose(later -> send(request, consumer, resend + 1));
        }).thenCompose(next -> next);
    }

    @Override
    public CompletableFuture<WebSocketResponse> buildWebSocketDirect(StandardWebSocketBuilder webSocket,
            WebSocket.Listener listener) {
        return vertx.buildWebSocketDirect(webSocket, listener);
    }

    /** A client derived from this one (other timeouts, say) shares its connections and decides the same. */
    @Override
    @SuppressWarnings("unchecked")
    public DerivedClientBuilder newBuilder() {
        VertxHttpClientBuilder<VertxHttpClientFactory> derived =
                (VertxHttpClientBuilder<VertxHttpClientFactory>) vertx.newBuilder();
        return new DerivedClientBuilder() {
            @Override
            public io.fabric8.kubernetes.client.http.HttpClient build() {
                return new KubeHttpClient(derived, closedResend);
            }

            @Override
            public DerivedClientBuilder addOrReplaceInterceptor(String name,
                    io.fabric8.kubernetes.client.http.Interceptor interceptor) {
                derived.addOrReplaceInterceptor(name, interceptor);
                return this;
            }

            @Override
            public DerivedClientBuilder authenticatorNone() {
                derived.authenticatorNone();
                return this;
            }

            @Override
            public DerivedClientBuilder tag(Object value) {
                derived.tag(value);
                return this;
            }
        };
    }

    /** Closing is shared with the Vert.x client and every client derived from it, as the client's own are. */
    @Override
    protected void doClose() {
        vertx.doClose();
    }
}
