package dev.rekon.declared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.declared.plan.DeclaredViews;
import dev.rekon.declared.plan.Scanned;
import dev.rekon.manifests.LiveObject;

/**
 * What an orphan scan keeps of each object it lists, shared by a pass's DeclaredStates until the last is planned, is
 * its identity and the few facts the orphan rules read, never its metadata tree: at 10,000 ImageDeploys the lists
 * of every kind in every namespace, kept as trees, took the heap the declared pass ran out of.
 */
class ScannedShapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aScanKeepsIdentitiesNotTrees() {
        List<String> trees = new ArrayList<>();
        for (RecordComponent rc : Scanned.class.getRecordComponents()) {
            if (JsonNode.class.isAssignableFrom(rc.getType()) || LiveObject.class.isAssignableFrom(rc.getType())
                    || java.util.Map.class.isAssignableFrom(rc.getType())) {
                trees.add(rc.getName());
            }
        }
        assertEquals(List.of(), trees, "Scanned components holding a tree or a map");
        RecordComponent scanned = List.of(DeclaredViews.class.getRecordComponents()).stream()
                .filter(rc -> rc.getName().equals("scanned")).findFirst().orElseThrow();
        assertEquals(Scanned.class, ((ParameterizedType) scanned.getGenericType()).getActualTypeArguments()[0]);
    }

    @Test
    void aListedObjectKeepsWhatTheOrphanRulesAndAGuardedDeleteRead() throws Exception {
        ObjectNode object = (ObjectNode) JSON.readTree("""
                {"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/service-account-token",
                "metadata":{"name":"tok","namespace":"shop","uid":"u-1","resourceVersion":"7",
                "labels":{"app.kubernetes.io/name":"x","rekon.dev/declared-state":"shop.apps"},
                "annotations":{"a":"b"},"ownerReferences":[{"kind":"X","name":"y","uid":"o"}],
                "deletionTimestamp":"2026-11-28T00:00:00Z",
                "managedFields":[{"manager":"kubectl","fieldsV1":{"f:data":{}}}]}}""");
        ObjectRef ref = new ObjectRef("v1", "Secret", "shop", "tok");

        Scanned s = Scanned.of(new LiveObject(ref, "shop.apps", object));

        assertEquals(ref, s.ref());
        assertEquals("u-1", s.uid());
        assertEquals("7", s.resourceVersion());
        assertTrue(s.owned());
        assertTrue(s.deleting());
        assertTrue(s.rekonManaged());
        assertTrue(s.tokenSecret());
        LiveObject delete = s.live();
        assertEquals(ref, delete.ref());
        assertEquals("u-1", delete.uid());
        assertEquals("7", delete.resourceVersion());

        Scanned plain = Scanned.of(new LiveObject(new ObjectRef("v1", "ConfigMap", "shop", "c"), null,
                (ObjectNode) JSON.readTree("{\"metadata\":{\"name\":\"c\",\"namespace\":\"shop\",\"uid\":\"u-2\","
                        + "\"labels\":{\"app.kubernetes.io/managed-by\":\"helm\"}}}")));
        assertFalse(plain.owned() || plain.deleting() || plain.rekonManaged() || plain.tokenSecret());
    }
}
