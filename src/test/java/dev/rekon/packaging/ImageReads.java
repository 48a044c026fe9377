package dev.rekon.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The image rekon/rekon:TAG read back over a plain-HTTP registry's API, as a runtime would fetch it. */
final class ImageReads {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String registry;
    private final JsonNode manifest;

    ImageReads(String registry, String tag) throws IOException, InterruptedException {
        this.registry = registry;
        this.manifest = get("/v2/rekon/rekon/manifests/" + tag,
                "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json");
    }

    /** The image config's {@code config} part: entrypoint, working dir, user, ports, labels, environment. */
    JsonNode config() throws IOException, InterruptedException {
        return get("/v2/rekon/rekon/blobs/" + manifest.at("/config/digest").asText(), "*/*").path("config");
    }

    /** The paths of every file in the image's layers. */
    List<String> layerFiles() throws IOException, InterruptedException {
        List<String> files = new ArrayList<>();
        for (JsonNode layer : manifest.path("layers")) {
            HttpResponse<InputStream> r = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()
                    .send(HttpRequest.newBuilder(URI.create("http://" + registry + "/v2/rekon/rekon/blobs/"
                            + layer.path("digest").asText())).build(), HttpResponse.BodyHandlers.ofInputStream());
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(r.body()))) {
                for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                    files.add(e.getName().replaceFirst("^\\.?/", ""));
                }
            }
        }
        return files;
    }

    private JsonNode get(String path, String accept) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + registry + path)).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }
}
