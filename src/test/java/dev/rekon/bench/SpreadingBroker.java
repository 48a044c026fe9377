package dev.rekon.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The test's own Broker, on 127.0.0.1: accepts a CloudEvent in binary mode (202, as a Broker's ingress does),
 * then delivers it to the next of its subscribers in turn, retrying a delivery that failed a few times, as a
 * Trigger's delivery does. It records which subscriber took which event id.
 */
final class SpreadingBroker implements AutoCloseable {

    /** One delivery: the event's id and type, the subscriber's port and the HTTP status it answered. */
    record Delivery(String id, String type, int port, int status) {
    }

    private final HttpServer server;
    private final ExecutorService deliveries = Executors.newFixedThreadPool(8);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Integer> subscribers = new ArrayList<>();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();
    private final List<Delivery> delivered = java.util.Collections.synchronizedList(new ArrayList<>());

    SpreadingBroker() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/", this::ingress);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** The processes events go to, in turn. */
    synchronized void deliverTo(int... ports) {
        for (int p : ports) {
            subscribers.add(p);
        }
    }

    int accepted() {
        return accepted.get();
    }

    /** Whether every accepted event has been delivered (or given up on). */
    boolean idle() {
        return pending.get() == 0;
    }

    /** Every delivery so far, retries included, in the order they were answered. */
    List<Delivery> deliveries() {
        synchronized (delivered) {
            return List.copyOf(delivered);
        }
    }

    private void ingress(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, String> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> {
            String n = name.toLowerCase(java.util.Locale.ROOT);
            if (n.startsWith("ce-") || n.equals("content-type")) {
                headers.put(n, values.get(0));
            }
        });
        if (!headers.containsKey("ce-id") || !headers.containsKey("ce-type")) {
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        accepted.incrementAndGet();
        pending.incrementAndGet();
        exchange.sendResponseHeaders(202, -1);
        exchange.close();
        deliveries.submit(() -> deliver(headers, body));
    }

    private void deliver(Map<String, String> headers, byte[] body) {
        try {
            for (int attempt = 0; attempt < 5; attempt++) {
                int port = subscriber();
                HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                        .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
                headers.forEach(request::header);
                int status;
                try {
                    status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                } catch (IOException e) {
                    status = 0;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                delivered.add(new Delivery(headers.get("ce-id"), headers.get("ce-type"), port, status));
                if (status / 100 == 2) {
                    return;
                }
                try {
                    Thread.sleep(200L << attempt);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        } finally {
            pending.decrementAndGet();
        }
    }

    private synchronized int subscriber() {
        return subscribers.get(Math.floorMod(next.getAndIncrement(), subscribers.size()));
    }

    @Override
    public void close() {
        server.stop(0);
        deliveries.shutdownNow();
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }
}
