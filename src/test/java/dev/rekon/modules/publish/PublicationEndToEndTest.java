package dev.rekon.modules.publish;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.manifest.ManifestFixtures;
import dev.rekon.modules.manifest.OcmRegistry;
import dev.rekon.modules.ocm.Normalisation;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.testing.Await;
import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.LocalRegistry;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * Module publication on the real registry and apiserver, signatures required: a signed component version pushed
 * in OCM's layout becomes its ModuleTemplate and moves channel {@code fast}, and a Kyma on {@code fast} installs
 * it; a newer version moves {@code fast} and the Kyma upgrades, while a channel someone else set stays; an older
 * version gets its template and moves nothing back; a version pushed again with other content, a tampered
 * signature, a missing signature and a tag that is no version are refused with nothing written. The registry
 * notifies Rekon of each push as well, so every publication arrives twice: the answers must agree.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = PublicationResource.class, restrictToAnnotatedClass = true)
class PublicationEndToEndTest {

    static final String KYMA = "operator.kyma-project.io/v1beta2";
    static final String NS = PublicationResource.NAMESPACE;
    final KubernetesClient admin = LocalCluster.get().adminClient();
    final String registry = LocalRegistry.get().hostPort();
    String module;
    String target;
    String group;

    @BeforeEach
    void names() {
        String id = UUID.randomUUID().toString().substring(0, 8);
        StringBuilder letters = new StringBuilder();
        id.chars().forEach(c -> letters.append((char) ('a' + Character.digit(c, 16))));
        module = "pub" + letters;
        target = "published-" + id;
        group = module + ".e2e.rekon.dev";
        if (admin.namespaces().withName(NS).get() == null) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                    .createOr(n -> n.update());
        }
    }

    String component() {
        return "e2e.rekon.dev/publish/" + module;
    }

    String repository() {
        return registry + "/component-descriptors/" + component();
    }

    @Test
    void publishInstallMoveRefuse() throws Exception {
        String first = push("0.4.1", "info", Signing.SIGNED);
        publish("0.4.1").body("outcome", anyOf(equalTo("applied"), equalTo("unchanged")))
                .body("template", equalTo(NS + "/" + module + "-0.4.1"));
        JsonNode template = object("ModuleTemplate", module + "-0.4.1");
        assertEquals(first, template.path("metadata").path("annotations").path("rekon.dev/component-digest").asText());
        assertEquals(module, template.path("spec").path("moduleName").asText());
        assertEquals("Widget", template.path("spec").path("data").path("kind").asText(), "the default CR");
        assertEquals(Map.of("fast", "0.4.1"), channels());
        assertEquals(component(), object("ModuleReleaseMeta", module).path("spec").path("ocmComponentName").asText());
        publish("0.4.1").body("outcome", equalTo("unchanged")).body("reason", equalTo("AlreadyPublished"));

        // Someone sets channel regular by hand, with a field manager of their own.
        applyChannel("release-manager", "regular", "0.4.1");
        kyma("fast");
        kymaEvent().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleInstalled"))
                .body("toVersion", equalTo("0.4.1"));
        assertEquals("0.4.1", admin.configMaps().inNamespace(target).withName("settings").get().getData().get("version"));

        push("0.4.3", "info", Signing.SIGNED);
        publish("0.4.3").body("outcome", anyOf(equalTo("applied"), equalTo("unchanged")));
        assertEquals(Map.of("fast", "0.4.3", "regular", "0.4.1"), channels(), "fast moved, regular kept");
        kymaEvent().body("reason", equalTo("ModuleUpgraded")).body("toVersion", equalTo("0.4.3"));
        assertEquals("0.4.3", admin.configMaps().inNamespace(target).withName("settings").get().getData().get("version"));

        // The registry's notification alone publishes: no event is sent for 0.4.2.
        push("0.4.2", "info", Signing.SIGNED);
        Await.until("the push of 0.4.2 to be published", Duration.ofSeconds(30),
                () -> object("ModuleTemplate", module + "-0.4.2") != null);
        publish("0.4.2").body("outcome", equalTo("unchanged")).body("reason", equalTo("AlreadyPublished"))
                .body("message", containsString("fast stays at 0.4.3"));
        assertEquals("0.4.3", channels().get("fast"), "and never moves the channel back");

        String rv = object("ModuleTemplate", module + "-0.4.3").path("metadata").path("resourceVersion").asText();
        String metaRv = object("ModuleReleaseMeta", module).path("metadata").path("resourceVersion").asText();
        push("0.4.3", "debug", Signing.SIGNED);
        publish("0.4.3").body("outcome", equalTo("rejected")).body("reason", equalTo("VersionRewritten"));
        assertEquals(rv, object("ModuleTemplate", module + "-0.4.3").path("metadata").path("resourceVersion").asText(),
                "the template stays");
        assertEquals(metaRv, object("ModuleReleaseMeta", module).path("metadata").path("resourceVersion").asText(),
                "and the channels");

        push("0.4.4", "info", Signing.TAMPERED);
        publish("0.4.4").body("outcome", equalTo("rejected")).body("reason", equalTo("DigestMismatch"))
                .body("message", containsString("require-signature"));
        push("0.4.5", "info", Signing.NONE);
        publish("0.4.5").body("outcome", equalTo("rejected")).body("reason", equalTo("SignatureMissing"));
        assertNull(object("ModuleTemplate", module + "-0.4.4"), "nothing written");
        assertNull(object("ModuleTemplate", module + "-0.4.5"), "nothing written");
        assertEquals(Map.of("fast", "0.4.3", "regular", "0.4.1"), channels());

        Await.until("Events on the template and the release meta", Duration.ofSeconds(30),
                () -> events("ModuleTemplate", module + "-0.4.1").contains("ModulePublished")
                        && events("ModuleReleaseMeta", module).contains("ChannelMoved"));

        // Promotion by hand: regular moves forward to a published version, never back.
        promote("regular", "0.4.3").body("outcome", equalTo("applied")).body("reason", equalTo("ChannelPromoted"))
                .body("fromVersion", equalTo("0.4.1"));
        assertEquals(Map.of("fast", "0.4.3", "regular", "0.4.3"), channels());
        assertEquals("0.4.3 promoted from 0.4.1 by dev.rekon.modules.promote", object("ModuleReleaseMeta", module)
                .path("metadata").path("annotations").path("rekon.dev/channel.regular").asText());
        promote("regular", "0.4.2").body("outcome", equalTo("rejected")).body("reason", equalTo("DowngradeRefused"));
        promote("regular", "0.4.4").body("outcome", equalTo("rejected")).body("reason", equalTo("VersionNotPublished"));
        assertEquals(Map.of("fast", "0.4.3", "regular", "0.4.3"), channels());

        publish("latest").body("outcome", equalTo("rejected")).body("reason", equalTo("VersionNotSemver"));
        publish("9.9.9").body("outcome", equalTo("rejected")).body("reason", equalTo("ComponentNotFound"));
        given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.modules.publish").header("ce-source", "curl").contentType("application/json")
                .body(Map.of("repository", registry + "/component-descriptors/example.com/other/kpack", "version", "1.0.0"))
                .post("/").then().statusCode(200).body("reason", equalTo("RepositoryNotPublished"));
    }

    /**
     * The registry notifies of a manifest push before it links the tag (distribution/distribution#2625), so a
     * notification can name a tag that does not resolve yet: what was pushed is read by the digest the notification
     * carries, and published under the tag's version.
     */
    @Test
    void aNotificationBeforeItsTagIsLinkedPublishesWhatWasPushed() throws Exception {
        String digest = push("1.2.0", "info", Signing.SIGNED, false);
        Map<String, Object> target = Map.of("mediaType", OcmRegistry.OCI_MANIFEST, "digest", digest,
                "repository", "component-descriptors/" + component(), "tag", "1.2.0",
                "url", "http://" + registry + "/v2/component-descriptors/" + component() + "/manifests/" + digest);
        Map<String, Object> event = Map.of("id", UUID.randomUUID().toString(), "timestamp", "2026-01-02T15:04:05Z",
                "action", "push", "target", target, "request", Map.of("host", registry, "method", "PUT"));
        given().header("Authorization", "Bearer " + LocalRegistry.NOTIFICATION_TOKEN)
                .contentType("application/vnd.docker.distribution.events.v1+json")
                .body(Map.of("events", List.of(event))).post("/webhooks/distribution").then().statusCode(200)
                .body("pushes[0].replies[0].outcome", equalTo("applied"))
                .body("pushes[0].replies[0].reason", equalTo("ModulePublished"));
        JsonNode template = object("ModuleTemplate", module + "-1.2.0");
        assertNotNull(template, "published under the tag's version");
        assertEquals(digest, template.path("metadata").path("annotations").path("rekon.dev/component-digest").asText());
    }

    enum Signing {
        SIGNED, TAMPERED, NONE
    }

    /** Pushes a component version (raw manifest, default CR) as OCM lays it out; answers its manifest digest. */
    String push(String version, String level, Signing signing) throws Exception {
        return push(version, level, signing, true);
    }

    String push(String version, String level, Signing signing, boolean tagged) throws Exception {
        byte[] tar = ManifestFixtures.tar(files(version, level));
        byte[] cr = ManifestFixtures.bytes("apiVersion: " + group + "/v1\nkind: Widget\nmetadata: {name: default,"
                + " namespace: " + target + "}\nspec: {size: 1}\n");
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, registry, tar);
        ObjectNode c = (ObjectNode) d.get("component");
        c.put("name", component());
        // The module's images are in its manifest: only local resources.
        var resources = c.withArray("resources");
        for (int i = resources.size() - 1; i >= 0; i--) {
            if (!"raw-manifest".equals(resources.get(i).path("name").asText())) {
                resources.remove(i);
            }
        }
        ObjectNode defaultCr = resources.addObject().put("name", "default-cr").put("type", "yaml")
                .put("relation", "local").put("version", version);
        defaultCr.putObject("access").put("type", "localBlob").put("localReference", ManifestFixtures.digest(cr))
                .put("mediaType", "application/x-yaml");
        defaultCr.putObject("digest").put("hashAlgorithm", "SHA-256").put("normalisationAlgorithm", "genericBlobDigest/v1")
                .put("value", ManifestFixtures.digest(cr).substring("sha256:".length()));
        ObjectNode descriptor = d;
        if (signing != Signing.NONE) {
            descriptor = TestSigning.sign(d, PublicationResource.privateKey(), SignatureVerifier.PKCS1, Normalisation.V3);
        }
        if (signing == Signing.TAMPERED) {
            ((ObjectNode) descriptor.get("component")).put("provider", "someone-else.example");
        }
        OcmRegistry ocm = new OcmRegistry(registry, null);
        return tagged ? ocm.pushComponent(descriptor, tar, cr) : ocm.pushComponentUntagged(descriptor, tar, cr);
    }

    Map<String, String> files(String version, String level) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("00-namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + target + "\n");
        f.put("10-crd.yaml", """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: widgets.GROUP
                spec:
                  group: GROUP
                  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
                  scope: Namespaced
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                """.replace("GROUP", group));
        f.put("20-config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: " + target
                + "}\ndata: {version: \"" + version + "\", level: " + level + "}\n");
        return f;
    }

    ValidatableResponse publish(String version) {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.modules.publish").header("ce-source", "curl")
                .contentType("application/json").body(Map.of("repository", repository(), "version", version))
                .post("/").then().statusCode(200);
    }

    ValidatableResponse promote(String channel, String version) {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.modules.promote").header("ce-source", "curl")
                .contentType("application/json").body(Map.of("module", module, "channel", channel, "version", version))
                .post("/").then().statusCode(200);
    }

    void kyma(String channel) {
        ObjectNode k = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "Kyma");
        k.putObject("metadata").put("name", module).put("namespace", NS);
        ObjectNode spec = k.putObject("spec").put("channel", channel);
        spec.putArray("modules").addObject().put("name", module).put("managed", true);
        admin.resource(Serialization.unmarshal(k.toString(), GenericKubernetesResource.class)).createOr(x -> x.update());
    }

    ValidatableResponse kymaEvent() {
        return given().header("ce-specversion", "1.0").header("ce-id", UUID.randomUUID().toString())
                .header("ce-type", "dev.rekon.modules.reconcile").header("ce-source", "curl")
                .contentType("application/json").body(Map.of("namespace", NS, "name", module))
                .post("/").then().statusCode(200);
    }

    void applyChannel(String manager, String channel, String version) {
        ObjectNode m = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "ModuleReleaseMeta");
        m.putObject("metadata").put("name", module).put("namespace", NS);
        ObjectNode spec = m.putObject("spec").put("moduleName", module).put("ocmComponentName", component());
        spec.putArray("channels").addObject().put("channel", channel).put("version", version);
        admin.resource(Serialization.unmarshal(m.toString(), GenericKubernetesResource.class)).fieldManager(manager)
                .forceConflicts().serverSideApply();
    }

    List<String> events(String kind, String name) {
        return admin.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> kind.equals(e.getInvolvedObject().getKind()) && name.equals(e.getInvolvedObject().getName()))
                .map(io.fabric8.kubernetes.api.model.Event::getReason).toList();
    }

    JsonNode object(String kind, String name) {
        GenericKubernetesResource o = admin.genericKubernetesResources(KYMA, kind).inNamespace(NS).withName(name).get();
        return o == null ? null : TestSigning.JSON.valueToTree(o);
    }

    Map<String, String> channels() {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode meta = object("ModuleReleaseMeta", module);
        for (JsonNode c : meta.path("spec").path("channels")) {
            out.put(c.path("channel").asText(), c.path("version").asText());
        }
        return out;
    }

}
