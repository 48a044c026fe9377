package dev.rekon.rollouts.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import com.github.packageurl.PackageURL;

import dev.rekon.rollouts.view.RolloutRecord;
import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;

/**
 * The CDEvents a stage sends, against the fields CDEvents spec v0.4 requires of a {@code service} event: the
 * context (version, id, source, type, timestamp), the subject (id, type, content.environment.id,
 * content.artifactId as a purl), carried as a CloudEvents 1.0 event of the same id, source and type.
 */
class ServiceEventsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String DIGEST = "sha256:" + "0b31b1c0".repeat(8);
    static final UUID ID = UUID.fromString("271069a8-fc18-44f1-b38f-9d70a1695819");
    static final Instant AT = Instant.parse("2026-11-27T12:00:00.123Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource({ "deployed, dev.cdevents.service.deployed.0.3.0", "upgraded, dev.cdevents.service.upgraded.0.3.0",
            "rolledback, dev.cdevents.service.rolledback.0.3.0" })
    void aServiceEventAsTheSpecSaysIt(String change, String type) throws Exception {
        CloudEvent event = ServiceEvents.of("demo", "hello", new RolloutRecord("hello",
                "registry.local:5000/team/hello@" + DIGEST, change, AT), "staging", "rekon/rollouts", ID, AT);
        JsonNode structured = JSON.readTree(new JsonFormat().serialize(event));
        assertEquals("1.0", structured.path("specversion").asText());
        assertEquals(ID.toString(), structured.path("id").asText());
        assertEquals("rekon/rollouts", structured.path("source").asText());
        assertEquals(type, structured.path("type").asText());
        assertEquals("application/json", structured.path("datacontenttype").asText());

        JsonNode data = structured.path("data");
        assertEquals(JSON.readTree("""
                {"context": {"version": "0.4.1", "id": "%s", "source": "rekon/rollouts", "type": "%s",
                             "timestamp": "2026-11-27T12:00:00.123Z"},
                 "subject": {"id": "demo/hello", "source": "rekon/rollouts", "type": "service",
                             "content": {"environment": {"id": "staging"},
                                         "artifactId": "pkg:oci/hello@sha256%%3A%s?repository_url=registry.local%%3A5000%%2Fteam%%2Fhello"}}}
                """.formatted(ID, type, "0b31b1c0".repeat(8))), data);
        // packageurl-java percent-encodes the qualifier's ':' and '/'; a reader decodes the repository back.
        PackageURL purl = new PackageURL(data.at("/subject/content/artifactId").asText());
        assertEquals("registry.local:5000/team/hello", purl.getQualifiers().get("repository_url"));
        assertEquals(DIGEST, purl.getVersion());
    }
}
