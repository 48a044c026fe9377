package dev.rekon.web;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Where a fanned-out resync pass sends its keys' reconcile events, and the one edge that sends them: the sink is
 * {@code rekon.resync.fanout-sink} when set, else Knative's {@code K_SINK} (what a SinkBinding injects), else none
 * (a pass works its keys itself). Events go in binary mode over kept-alive connections, at most
 * {@code rekon.resync.fanout-parallelism} at once (a pass of 10,000 keys waits for room rather than opening 10,000
 * requests), each counted in {@value #METRIC} by area and outcome ({@code sent}, {@code failed}).
 */
@ApplicationScoped
public class FanoutSink {

    static final String METRIC = "rekon.resync.fanout.sent";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "rekon.resync.fanout-sink")
    Optional<String> property;

    @ConfigProperty(name = "K_SINK")
    Optional<String> kSink;

    @ConfigProperty(name = "rekon.resync.fanout-parallelism", defaultValue = "16")
    int parallelism;

    @Inject
    MeterRegistry metrics;

    private volatile Semaphore room;
    private volatile CloudEventSink sink;

    /** The sink a pass fans out to; empty when it works its keys itself. */
    public Optional<URI> sink() {
        return property.or(() -> kSink).map(String::trim).filter(s -> !s.isEmpty()).map(URI::create);
    }

    /** Sends one event of {@code area}'s pass; completes once the sink accepted it, fails naming why not. */
    public CompletableFuture<Void> send(String area, OutgoingEvent event) {
        URI to = sink().orElseThrow(() -> new IllegalStateException("no fan-out sink is set"));
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(event.data());
        } catch (JsonProcessingException e) {
            return CompletableFuture.failedFuture(e);
        }
        Semaphore r = room();
        try {
            r.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> sent;
        try {
            sent = http().send(to, headers(event), body);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return sent.whenComplete((ok, error) -> {
            r.release();
            metrics.counter(METRIC, "area", area, "outcome", error == null ? "sent" : "failed").increment();
        });
    }

    private static Map<String, String> headers(OutgoingEvent event) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("content-type", "application/json");
        h.put("ce-specversion", "1.0");
        h.put("ce-id", event.id());
        h.put("ce-source", event.source());
        h.put("ce-type", event.type());
        event.extensions().forEach((name, value) -> h.put("ce-" + name, value));
        return h;
    }

    private Semaphore room() {
        Semaphore r = room;
        if (r == null) {
            synchronized (this) {
                if (room == null) {
                    room = new Semaphore(Math.max(1, parallelism));
                }
                r = room;
            }
        }
        return r;
    }

    private CloudEventSink http() {
        CloudEventSink s = sink;
        if (s == null) {
            synchronized (this) {
                if (sink == null) {
                    sink = CloudEventSink.keptAlive(TIMEOUT);
                }
                s = sink;
            }
        }
        return s;
    }
}
