package dev.rekon.rollouts.apply;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.TreeMap;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.packageurl.MalformedPackageURLException;
import com.github.packageurl.PackageURL;

import dev.rekon.registry.ImageReference;
import dev.rekon.rollouts.view.RolloutRecord;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;

/**
 * The CDEvent (spec v0.4, subject {@code service}) that reports one completed rollout of an ImageDeploy: type
 * {@code dev.cdevents.service.<deployed|upgraded|rolledback>.0.3.0}, subject id {@code <namespace>/<name>}, the
 * environment this cluster's name, and the artifact a purl {@code pkg:oci/<name>@<digest>?repository_url=<repo>}.
 * Pure: the event's id and time are given.
 */
public final class ServiceEvents {

    public static final String SPEC_VERSION = "0.4.1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ServiceEvents() {
    }

    public static String type(String change) {
        return "dev.cdevents.service." + change + ".0.3.0";
    }

    public static CloudEvent of(String namespace, String name, RolloutRecord record, String environment,
            String source, UUID id, Instant at) {
        String type = type(record.change());
        ObjectNode data = JSON.createObjectNode();
        ObjectNode context = data.putObject("context");
        context.put("version", SPEC_VERSION);
        context.put("id", id.toString());
        context.put("source", source);
        context.put("type", type);
        context.put("timestamp", at.atOffset(ZoneOffset.UTC).toString());
        ObjectNode subject = data.putObject("subject");
        subject.put("id", namespace + "/" + name);
        subject.put("source", source);
        subject.put("type", "service");
        ObjectNode content = subject.putObject("content");
        content.putObject("environment").put("id", environment);
        content.put("artifactId", purl(record.image()));
        return CloudEventBuilder.v1().withId(id.toString()).withSource(URI.create(source)).withType(type)
                .withTime(at.atOffset(ZoneOffset.UTC)).withSubject(namespace + "/" + name)
                .withDataContentType("application/json")
                .withData(data.toString().getBytes(StandardCharsets.UTF_8)).build();
    }

    /** {@code pkg:oci/<last path segment>@<digest or tag>?repository_url=<registry>/<repository>}. */
    static String purl(String image) {
        ImageReference ref = ImageReference.parse(image);
        String repository = ref.repository();
        String name = repository.substring(repository.lastIndexOf('/') + 1).toLowerCase(java.util.Locale.ROOT);
        TreeMap<String, String> qualifiers = new TreeMap<>();
        qualifiers.put("repository_url", ref.registry() + "/" + repository);
        try {
            return new PackageURL("oci", null, name, ref.digest() != null ? ref.digest() : ref.tag(), qualifiers,
                    null).canonicalize();
        } catch (MalformedPackageURLException e) {
            throw new IllegalArgumentException("image " + image + " gives no package URL: " + e.getMessage(), e);
        }
    }
}
