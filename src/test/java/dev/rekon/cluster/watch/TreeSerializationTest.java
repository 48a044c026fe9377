package dev.rekon.cluster.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/** What the watches read from the apiserver's bytes: trees with the informer's identity, fabric8's reading else. */
class TreeSerializationTest {

    private final TreeSerialization serialization = new TreeSerialization();

    @Test
    void aWatchedDeploymentStaysTheTreeTheApiserverSent() {
        WatchEvent event = serialization.unmarshal("""
                {"type":"MODIFIED","object":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web",
                "namespace":"shop","uid":"u-1","resourceVersion":"42","labels":{"a":"b"}},
                "spec":{"template":{"spec":{"containers":[{"name":"app","image":"r/app@sha256:1"}]}}}}}""",
                WatchEvent.class);

        WatchedObject object = assertInstanceOf(WatchedObject.class, event.getObject());
        assertEquals("MODIFIED", event.getType());
        assertEquals("shop/web@42 u-1", object.getMetadata().getNamespace() + "/" + object.getMetadata().getName()
                + "@" + object.getMetadata().getResourceVersion() + " " + object.getMetadata().getUid());
        assertEquals("Deployment", object.getKind());
        assertEquals("r/app@sha256:1", object.tree().at("/spec/template/spec/containers/0/image").asText());
    }

    @Test
    void anExpiredWatchStillEndsWithTheStatusTheInformerRelistsOn() {
        WatchEvent event = serialization.unmarshal("""
                {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                "message":"too old resource version: 1 (5)","reason":"Expired","code":410}}""", WatchEvent.class);

        assertEquals(410, assertInstanceOf(Status.class, event.getObject()).getCode());
    }

    @Test
    void aListPageKeepsItsVersionAndContinueAndEachItemItsTree() {
        GenericKubernetesResourceList list = serialization.unmarshal("""
                {"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"77","continue":"c2"},
                "items":[{"metadata":{"name":"a","namespace":"n","resourceVersion":"5"},"spec":{"replicas":2}}]}""",
                GenericKubernetesResourceList.class);

        assertEquals("77", list.getMetadata().getResourceVersion());
        assertEquals("c2", list.getMetadata().getContinue());
        WatchedObject item = assertInstanceOf(WatchedObject.class, list.getItems().get(0));
        assertEquals(2, item.tree().at("/spec/replicas").asInt());
        assertEquals("n/a@5", item.getMetadata().getNamespace() + "/" + item.getMetadata().getName() + "@"
                + item.getMetadata().getResourceVersion());
    }

    @Test
    void managedFieldsAndTheLastAppliedAnnotationAreDroppedAtTheEdge() {
        WatchedObject object = watched("web", "shop", """
                "managedFields":[{"manager":"kubectl","operation":"Apply","fieldsV1":{"f:spec":{}}}],
                "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"kind\\":\\"Deployment\\"}",
                "rekon.dev/applied-builds":"[]"},""");

        assertFalse(object.tree().path("metadata").has("managedFields"));
        assertEquals("{\"rekon.dev/applied-builds\":\"[]\"}", object.tree().path("metadata").path("annotations").toString());
    }

    /** Thousands of watched objects name the same few namespaces, images and reasons: each text is held once. */
    @Test
    void theSameTextInTwoWatchedObjectsIsOneString() {
        WatchedObject a = watched("a", "shop", "");
        WatchedObject b = watched("b", "shop", "");

        assertSame(a.tree().at("/metadata/namespace").textValue(), b.tree().at("/metadata/namespace").textValue());
        assertSame(a.tree().at("/spec/template/spec/containers/0/image").textValue(),
                b.tree().at("/spec/template/spec/containers/0/image").textValue());
    }

    private WatchedObject watched(String name, String namespace, String moreMetadata) {
        WatchEvent event = serialization.unmarshal("""
                {"type":"ADDED","object":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{MORE"name":"NAME",
                "namespace":"NS","uid":"u-NAME","resourceVersion":"42"},
                "spec":{"template":{"spec":{"containers":[{"name":"app","image":"r/app@sha256:1"}]}}}}}"""
                .replace("MORE", moreMetadata).replace("NAME", name).replace("NS", namespace), WatchEvent.class);
        return assertInstanceOf(WatchedObject.class, event.getObject());
    }

    @Test
    void otherReadsAreFabric8s() {
        Deployment d = serialization.unmarshal("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                + "\"metadata\":{\"name\":\"x\"}}", Deployment.class);
        assertSame(Deployment.class, d.getClass());
        assertEquals("x", d.getMetadata().getName());
    }
}
