package dev.rekon.testing.knative;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.testing.Await;
import dev.rekon.testing.SharedFiles;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The test broker (hack/lib/knative-broker) as a local process: it routes every event it receives by the Triggers
 * of {@code knative/eventing/triggers.yaml}, judged by Knative's own filter code, to the functions, and records
 * what it delivered and what was wrong (an event matching no Trigger or several, a reply matching one).
 */
public final class LocalBroker implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final String url;

    private LocalBroker(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** Starts a broker posting to the functions at {@code subscriber}; {@code recordDir} may be null. */
    public static LocalBroker start(String subscriber, Path workDir, Path recordDir) {
        try {
            Files.createDirectories(workDir);
            Path address = workDir.resolve("broker-address");
            Files.deleteIfExists(address);
            List<String> command = new ArrayList<>(List.of(KnativeBinaries.program("knative-broker").toString(),
                    "-listen", "127.0.0.1:0", "-subscriber", subscriber, "-address-file", address.toString(),
                    "-triggers", SharedFiles.projectDir().resolve("knative/eventing/triggers.yaml").toString()));
            if (recordDir != null) {
                Files.createDirectories(recordDir);
                command.addAll(List.of("-record", recordDir.toString()));
            }
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(workDir.resolve("broker.log").toFile())).start();
            Await.until("the test broker to listen", Duration.ofSeconds(20),
                    () -> Files.exists(address) || !p.isAlive());
            if (!p.isAlive()) {
                throw new IllegalStateException("the test broker exited: see " + workDir.resolve("broker.log"));
            }
            return new LocalBroker(p, Files.readString(address).trim());
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the test broker", e);
        }
    }

    /** Where sources send their events (K_SINK). */
    public String url() {
        return url;
    }

    /** What the broker delivered so far: id, type, kind, name, trigger, status, reply. */
    public List<JsonNode> deliveries() {
        List<JsonNode> list = new ArrayList<>();
        get("deliveries").forEach(list::add);
        return list;
    }

    /** Every routing error so far (none expected). */
    public List<String> errors() {
        List<String> list = new ArrayList<>();
        get("errors").forEach(e -> list.add(e.asText()));
        return list;
    }

    private JsonNode get(String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return Serialization.jsonMapper().readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the broker's " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        process.destroy();
    }
}
