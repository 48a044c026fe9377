package dev.rekon.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * {@link CloudEventSink#send(URI, String, byte[], SendRetry, Runnable)} against a real HTTP server on 127.0.0.1
 * that answers each POST as scripted: a sink that fails for a moment gets the event once it is back, one that
 * refuses it is not asked again, and one that stays down is asked a bounded number of times.
 */
class CloudEventSinkRetryTest {

    static final SendRetry QUICK = new SendRetry(3, Duration.ofMillis(20), Duration.ofMillis(50));

    HttpServer server;
    final List<Integer> answered = new CopyOnWriteArrayList<>();

    URI serve(int... codes) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicInteger n = new AtomicInteger();
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            int code = codes[Math.min(n.getAndIncrement(), codes.length - 1)];
            answered.add(code);
            exchange.sendResponseHeaders(code, -1);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aSinkThatFailsForAMomentGetsTheEventOnceItIsBack() throws Exception {
        URI sink = serve(503, 502, 202);
        AtomicInteger retried = new AtomicInteger();
        CloudEventSink.keptAlive(Duration.ofSeconds(5)).send(sink, "application/json", "{}".getBytes(), QUICK,
                retried::incrementAndGet).get(5, TimeUnit.SECONDS);
        assertEquals(List.of(503, 502, 202), answered);
        assertEquals(2, retried.get());
    }

    @Test
    void aSinkThatRefusesTheEventIsNotAskedAgain() throws Exception {
        URI sink = serve(400, 202);
        ExecutionException e = assertThrows(ExecutionException.class, () -> CloudEventSink.keptAlive(
                Duration.ofSeconds(5)).send(sink, "application/json", "{}".getBytes(), QUICK, () -> {
                }).get(5, TimeUnit.SECONDS));
        assertEquals(400, assertInstanceOf(CloudEventSink.NotAccepted.class, e.getCause()).status());
        assertEquals(List.of(400), answered);
    }

    @Test
    void aSinkThatStaysDownIsAskedABoundedNumberOfTimesWithoutHoldingTheCaller() throws Exception {
        URI sink = serve(503);
        long start = System.nanoTime();
        var sent = CloudEventSink.keptAlive(Duration.ofSeconds(5)).send(sink, "application/json", "{}".getBytes(),
                QUICK, () -> {
                });
        assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(500), "the send is not waited for");
        ExecutionException e = assertThrows(ExecutionException.class, () -> sent.get(5, TimeUnit.SECONDS));
        assertEquals(503, assertInstanceOf(CloudEventSink.NotAccepted.class, e.getCause()).status());
        assertEquals(List.of(503, 503, 503), answered);
    }
}
