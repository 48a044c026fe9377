package dev.rekon.rollouts.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

import dev.rekon.rollouts.CdEventsConfig;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutRecord;
import dev.rekon.testing.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * {@link CdEventGateway} against a real sink on 127.0.0.1 that is unavailable for a moment: the rollout's CDEvent
 * reaches it once it is back, counted once as sent, each send made again counted as retried.
 */
class CdEventGatewayRetryTest {

    HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aCdEventTheSinkCouldNotTakeForAMomentIsSentAgainAndCountedOnce() throws Exception {
        List<Integer> answered = new CopyOnWriteArrayList<>();
        AtomicInteger n = new AtomicInteger();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            int code = n.getAndIncrement() == 0 ? 503 : 202;
            answered.add(code);
            exchange.sendResponseHeaders(code, -1);
            exchange.close();
        });
        server.start();
        URI sink = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        CdEventGateway gateway = new CdEventGateway();
        gateway.metrics = metrics;
        gateway.clock = Clock.fixed(Instant.parse("2026-11-28T05:00:00Z"), ZoneOffset.UTC);
        gateway.config = new CdEventsConfig() {
            @Override
            public Optional<URI> sink() {
                return Optional.of(sink);
            }

            @Override
            public String environment() {
                return "staging";
            }

            @Override
            public String source() {
                return "rekon/rollouts";
            }
        };
        ImageDeployView idp = ImageDeployView.fromJson(new ObjectMapper().readTree(
                "{\"metadata\": {\"namespace\": \"demo\", \"name\": \"hello\"}}"));
        gateway.rolledOut(idp, List.of(new RolloutRecord("hello", "registry.local/hello@sha256:" + "a".repeat(64),
                "upgraded", Instant.parse("2026-11-28T05:00:00Z"))));

        Await.until("the CDEvent sent once the sink is back",
                () -> metrics.find(CdEventGateway.METRIC).tag("outcome", "sent").counter() != null);
        assertEquals(List.of(503, 202), answered);
        assertEquals(1.0, metrics.get(CdEventGateway.METRIC).tag("outcome", "sent").counter().count());
        assertEquals(1.0, metrics.get(CdEventGateway.RETRIED).counter().count());
        assertEquals(null, metrics.find(CdEventGateway.METRIC).tag("outcome", "failed").counter());
    }
}
