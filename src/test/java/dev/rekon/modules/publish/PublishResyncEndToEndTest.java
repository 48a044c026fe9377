package dev.rekon.modules.publish;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The publish resync pass on the real registry (its catalog and tag lists) and apiserver: a version whose
 * ModuleTemplate was lost is published again from the registry's tags, and a second pass over the converged
 * versions changes no object's resourceVersion.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = PublicationResource.class, restrictToAnnotatedClass = true)
class PublishResyncEndToEndTest {

    @Test
    void aLostVersionComesBackAndAConvergedPassWritesNothing() throws Exception {
        PublicationEndToEndTest pub = new PublicationEndToEndTest();
        pub.names();
        pub.push("0.1.0", "info", PublicationEndToEndTest.Signing.SIGNED);
        pub.push("0.2.0", "info", PublicationEndToEndTest.Signing.SIGNED);
        String lost = pub.module + "-0.1.0";
        Await.until("the pushes to be published", Duration.ofSeconds(30),
                () -> pub.object("ModuleTemplate", lost) != null && pub.object("ModuleTemplate", pub.module + "-0.2.0")
                        != null && "0.2.0".equals(pub.channels().get("fast")));
        pub.admin.genericKubernetesResources(PublicationEndToEndTest.KYMA, "ModuleTemplate")
                .inNamespace(PublicationEndToEndTest.NS).withName(lost).delete();
        Await.until("the template to be gone", Duration.ofSeconds(30), () -> pub.object("ModuleTemplate", lost) == null);

        JsonNode first = resync();
        assertTrue(items(first).contains("changed " + lost + " ModulePublished"), first.toString());
        assertNotNull(pub.object("ModuleTemplate", lost));
        assertEquals(Map.of("fast", "0.2.0"), pub.channels(), "fast stays at the newer version");

        Map<String, String> versions = Map.of(
                lost, rv(pub, "ModuleTemplate", lost),
                pub.module + "-0.2.0", rv(pub, "ModuleTemplate", pub.module + "-0.2.0"),
                pub.module, rv(pub, "ModuleReleaseMeta", pub.module));
        JsonNode second = resync();
        assertTrue(items(second).stream().noneMatch(i -> i.contains(" " + pub.module)), second.toString());
        assertEquals(versions, Map.of(
                lost, rv(pub, "ModuleTemplate", lost),
                pub.module + "-0.2.0", rv(pub, "ModuleTemplate", pub.module + "-0.2.0"),
                pub.module, rv(pub, "ModuleReleaseMeta", pub.module)), "a converged pass writes nothing");
    }

    static JsonNode resync() throws Exception {
        String body = given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.resync").header("ce-source", "curl").contentType("application/json")
                .body(Map.of("scope", "publish")).post("/").then().statusCode(200).extract().asString();
        JsonNode reply = TestSigning.JSON.readTree(body);
        assertEquals("publish", reply.path("areas").path(0).path("area").asText(), body);
        return reply;
    }

    /** {@code <result> <name> <reason>} of each object the publish pass listed. */
    static List<String> items(JsonNode reply) {
        return java.util.stream.StreamSupport.stream(reply.path("areas").path(0).path("objects").spliterator(), false)
                .map(i -> i.path("result").asText() + " " + i.path("object").path("name").asText() + " "
                        + i.path("reason").asText()).toList();
    }

    static String rv(PublicationEndToEndTest pub, String kind, String name) {
        return pub.object(kind, name).path("metadata").path("resourceVersion").asText();
    }
}
