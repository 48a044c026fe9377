package dev.rekon.modules.publish;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import dev.rekon.testing.TestClock;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * Promotion by soak on the real registry and apiserver ({@code regular=fast+24h}, the clock advanced by the test):
 * a version that runs Ready on the Kyma following {@code fast} moves {@code regular} after 24 hours, and the Kyma on
 * {@code regular} upgrades; a Kyma failing on {@code fast} blocks the next version however long it waits, and the
 * release meta, its Events and {@code GET /modules} say which Kyma. The Kyma on {@code fast} is a remote one whose
 * status the test writes, as its controller would.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = PublicationResource.class, restrictToAnnotatedClass = true)
class PromotionEndToEndTest {

    final PublicationEndToEndTest scene = new PublicationEndToEndTest();

    @BeforeEach
    void names() {
        scene.names();
    }

    @AfterEach
    void clock() {
        TestClock.CLOCK.reset();
    }

    @Test
    void soakMovesRegularAndAFailingKymaBlocksTheNextVersion() throws Exception {
        String edge = scene.module + "-edge";
        String prod = scene.module + "-prod";
        // Each version is pushed only when it is due: the registry's notification publishes it as well.
        scene.push("0.4.1", "info", PublicationEndToEndTest.Signing.SIGNED);
        scene.publish("0.4.1");
        scene.promote("regular", "0.4.1").body("reason", equalTo("ChannelPromoted"));
        kyma(prod, "regular");
        reconcileKyma(prod).body("reason", equalTo("ModuleInstalled")).body("toVersion", equalTo("0.4.1"));

        scene.push("0.4.3", "info", PublicationEndToEndTest.Signing.SIGNED);
        scene.publish("0.4.3");
        kyma(edge, "fast");
        runs(edge, "0.4.3", "Ready", null);
        resync();
        String soak = annotation("rekon.dev/soak.regular");
        assertTrue(soak.startsWith("0.4.3@"), soak);
        assertTrue(annotation("rekon.dev/promotion.regular").startsWith("Soaking (Soaking): 0.4.3 has run Ready on 1"
                + " Kyma(s) following fast"), annotation("rekon.dev/promotion.regular"));

        TestClock.CLOCK.advance(Duration.ofHours(23));
        resync();
        assertEquals(Map.of("fast", "0.4.3", "regular", "0.4.1"), scene.channels(), "still soaking");
        assertEquals(soak, annotation("rekon.dev/soak.regular"));

        TestClock.CLOCK.advance(Duration.ofHours(1));
        resync();
        assertEquals(Map.of("fast", "0.4.3", "regular", "0.4.3"), scene.channels(), "soaked: regular moved");
        assertTrue(annotation("rekon.dev/channel.regular").startsWith("0.4.3 promoted from 0.4.1 after running Ready"
                + " on fast for 24h since"), annotation("rekon.dev/channel.regular"));
        reconcileKyma(prod).body("reason", equalTo("ModuleUpgraded")).body("toVersion", equalTo("0.4.3"));
        assertEquals("0.4.3", scene.admin.configMaps().inNamespace(scene.target).withName("settings").get().getData()
                .get("version"));

        scene.push("0.4.4", "info", PublicationEndToEndTest.Signing.SIGNED);
        scene.publish("0.4.4");
        runs(edge, "0.4.4", "Error", "pods of the manager crash");
        resync();
        String blocked = "Blocked (KymaUnhealthy): Kyma " + PublicationEndToEndTest.NS + "/" + edge + " runs "
                + scene.module + " 0.4.4 in state Error: pods of the manager crash";
        assertTrue(annotation("rekon.dev/promotion.regular").startsWith(blocked),
                annotation("rekon.dev/promotion.regular"));
        TestClock.CLOCK.advance(Duration.ofDays(3));
        resync();
        assertEquals("0.4.3", scene.channels().get("regular"), "blocked however long it waits");
        String find = "find { it.module == '" + scene.module + "' && it.published }";
        given().get("/modules").then().statusCode(200)
                .body(find + ".channels.regular", equalTo("0.4.3"))
                .body(find + ".promotions[0].state", equalTo("Blocked"))
                .body(find + ".promotions[0].reason", equalTo("KymaUnhealthy"))
                .body(find + ".promotions[0].message", containsString(edge))
                .body(find + ".versions.find { it.version == '0.4.4' }.signature", equalTo("SignatureVerified"))
                .body(find + ".versions.find { it.version == '0.4.3' }.kymas[0]", equalTo(PublicationEndToEndTest.NS
                        + "/" + prod));
        Await.until("a Warning KymaUnhealthy on the release meta", Duration.ofSeconds(30),
                () -> scene.events("ModuleReleaseMeta", scene.module).contains("KymaUnhealthy"));
        // The page says why too: the rule's state as its plan wrote it, from the release metas' watch.
        String row = "promotions.rows.find { it.module == '" + scene.module + "' && it.channel == 'regular' }";
        Await.until("the page to show the blocked promotion", Duration.ofSeconds(30), () -> "Blocked".equals(
                given().get("/status?area=modules").then().statusCode(200).extract().path(row + ".state")));
        given().get("/status?area=modules").then().statusCode(200)
                .body(row + ".reason", equalTo("KymaUnhealthy"))
                .body(row + ".message", containsString(edge))
                .body(row + ".offers", equalTo("0.4.3"))
                .body(row + ".problem", equalTo(true));
        given().get("/?area=modules").then().statusCode(200)
                .body(containsString("Module promotions")).body(containsString("KymaUnhealthy"));

        // The Kyma recovers, and no pass has run since: the page plans the rule now, so it shows the new soak
        // rather than the block its last plan wrote.
        runs(edge, "0.4.4", "Ready", null);
        Await.until("the page to show the soak the rules would start now", Duration.ofSeconds(30), () -> "Soaking"
                .equals(given().get("/status?area=modules").then().statusCode(200).extract().path(row + ".state")));
        assertTrue(annotation("rekon.dev/promotion.regular").startsWith(blocked), "the page wrote nothing");
    }

    void kyma(String name, String channel) {
        ObjectNode k = TestSigning.JSON.createObjectNode().put("apiVersion", PublicationEndToEndTest.KYMA)
                .put("kind", "Kyma");
        k.putObject("metadata").put("name", name).put("namespace", PublicationEndToEndTest.NS);
        k.putObject("spec").put("channel", channel).putArray("modules").addObject().put("name", scene.module)
                .put("managed", true);
        scene.admin.resource(Serialization.unmarshal(k.toString(), GenericKubernetesResource.class))
                .createOr(x -> x.update());
    }

    /** Writes the Kyma's module status as its (remote) controller would. */
    void runs(String kyma, String version, String state, String message) {
        ObjectNode status = TestSigning.JSON.createObjectNode();
        ObjectNode m = status.putObject("status").putArray("modules").addObject().put("name", scene.module)
                .put("channel", "fast").put("version", version).put("state", state);
        if (message != null) {
            m.put("message", message);
        }
        scene.admin.genericKubernetesResources(PublicationEndToEndTest.KYMA, "Kyma").inNamespace(PublicationEndToEndTest.NS)
                .withName(kyma).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), status.toString());
    }

    ValidatableResponse reconcileKyma(String name) {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.modules.reconcile").header("ce-source", "curl")
                .contentType("application/json").body(Map.of("namespace", PublicationEndToEndTest.NS, "name", name))
                .post("/").then().statusCode(200);
    }

    /** The resync pass of the promotions, as the periodic PingSource sends it. */
    void resync() {
        given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.resync").header("ce-source", "curl").contentType("application/json")
                .body(Map.of("scope", PromotionResync.AREA, "namespace", PublicationEndToEndTest.NS)).post("/").then()
                .statusCode(200).body("areas[0].failed", equalTo(0));
    }

    String annotation(String name) {
        return scene.object("ModuleReleaseMeta", scene.module).path("metadata").path("annotations").path(name).asText();
    }
}
