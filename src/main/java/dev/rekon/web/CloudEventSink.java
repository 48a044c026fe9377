package dev.rekon.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The edge for CloudEvents Rekon sends (to a Broker or any sink URL), as the functions are the edge for those it
 * receives: one structured event POSTed, not waited for; the future fails, naming why, on an error or an answer
 * other than 2xx.
 */
public final class CloudEventSink {

    private static final Duration CONNECT = Duration.ofSeconds(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT).build();
    private final Duration timeout;

    public CloudEventSink(Duration timeout) {
        this.timeout = timeout;
    }

    /** Sends {@code body} of {@code contentType} to {@code sink}; completes once the sink accepted it. */
    public CompletableFuture<Void> send(URI sink, String contentType, byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(sink).timeout(timeout).header("content-type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).thenApply(response -> {
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("HTTP " + response.statusCode() + " from " + sink);
            }
            return null;
        });
    }
}
