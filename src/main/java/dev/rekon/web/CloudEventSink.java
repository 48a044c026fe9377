package dev.rekon.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The edge for CloudEvents Rekon sends (to a Broker or any sink URL), as the functions are the edge for those it
 * receives: one event POSTed, structured or in binary mode, not waited for; the future fails, naming why, on an
 * error or an answer other than 2xx.
 */
public final class CloudEventSink {

    private static final Duration CONNECT = Duration.ofSeconds(5);

    private final HttpClient http;
    private final Duration timeout;

    public CloudEventSink(Duration timeout) {
        this(timeout, HttpClient.newBuilder().connectTimeout(CONNECT).build());
    }

    private CloudEventSink(Duration timeout, HttpClient http) {
        this.timeout = timeout;
        this.http = http;
    }

    /**
     * A sink for many events to one place: HTTP/1.1, whose connections the client keeps alive and reuses (a
     * Broker's ingress is plain HTTP inside the cluster; an upgrade to h2c per connection buys nothing there).
     */
    public static CloudEventSink keptAlive(Duration timeout) {
        return new CloudEventSink(timeout, HttpClient.newBuilder().connectTimeout(CONNECT)
                .version(HttpClient.Version.HTTP_1_1).build());
    }

    /** Sends {@code body} of {@code contentType} to {@code sink}; completes once the sink accepted it. */
    public CompletableFuture<Void> send(URI sink, String contentType, byte[] body) {
        return send(sink, Map.of("content-type", contentType), body);
    }

    /**
     * Sends {@code body} as above, again as {@code retry} decides while the sink fails for a moment; completes once
     * the sink accepted it, or fails with the last failure. {@code retried} is told of each send made again. The
     * caller is never held: the pauses run on the client's timer, not its thread.
     */
    public CompletableFuture<Void> send(URI sink, String contentType, byte[] body, SendRetry retry, Runnable retried) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        attempt(sink, Map.of("content-type", contentType), body, retry, retried, 1, done);
        return done;
    }

    private void attempt(URI sink, Map<String, String> headers, byte[] body, SendRetry retry, Runnable retried,
            int made, CompletableFuture<Void> done) {
        send(sink, headers, body).whenComplete((ok, error) -> {
            if (error == null) {
                done.complete(null);
                return;
            }
            Throwable failure = SendRetry.unwrapped(error);
            retry.again(made, failure).ifPresentOrElse(pause -> {
                retried.run();
                CompletableFuture.delayedExecutor(pause.toMillis(), TimeUnit.MILLISECONDS)
                        .execute(() -> attempt(sink, headers, body, retry, retried, made + 1, done));
            }, () -> done.completeExceptionally(failure));
        });
    }

    /** The sink answered, and not with 2xx: {@code status} tells whether it may take the event later. */
    public static final class NotAccepted extends IllegalStateException {

        private final int status;

        public NotAccepted(int status, String sink) {
            super("HTTP " + status + " from " + sink);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /** Sends {@code body} with these headers (a binary-mode event's {@code ce-} attributes); as above. */
    public CompletableFuture<Void> send(URI sink, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(sink).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding()).thenApply(response -> {
            if (response.statusCode() / 100 != 2) {
                throw new NotAccepted(response.statusCode(), sink.toString());
            }
            return null;
        });
    }
}
