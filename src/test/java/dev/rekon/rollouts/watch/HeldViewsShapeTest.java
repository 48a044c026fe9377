package dev.rekon.rollouts.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.rollouts.view.DeploymentView;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.KpackImage;

/**
 * What the watches hold of each ImageDeploy, Deployment, Image and DeclaredState is typed fields and text, never a
 * JSON tree: at 10,000 ImageDeploys a tree kept per object (a status, an owner reference) was most of the heap.
 */
class HeldViewsShapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void noWatchedViewKeepsATree() {
        List<String> trees = new ArrayList<>();
        for (Class<?> view : List.of(ImageDeployView.class, DeploymentView.class, KpackImage.class,
                DeclaredStateView.class, DeploymentProgressFacet.Progress.class)) {
            trees(view, view.getSimpleName(), new HashSet<>(), trees);
        }
        assertEquals(List.of(), trees, "views holding a JSON tree");
    }

    @Test
    void anImageDeploysStatusIsKeptAsTextAndWrittenBackWhole() throws Exception {
        JsonNode object = JSON.readTree("""
                {"apiVersion":"rekon.dev/v1alpha1","kind":"ImageDeploy","metadata":{"name":"web","namespace":"shop",
                "uid":"u-1","resourceVersion":"7","generation":2},
                "spec":{"deployment":{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"REF=app"}]}}}}},
                "status":{"observedGeneration":2,"deployment":"web","someoneElses":{"kept":true},
                "images":[{"name":"app","image":"r/app@sha256:1","buildCounter":4}],
                "conditions":[{"type":"Ready","status":"True","reason":"RolledOut","message":"m",
                "lastTransitionTime":"2026-11-28T00:00:00Z","observedGeneration":2}]}}""");

        ImageDeployView view = new ImageDeployFacet.Rekon().view(object);

        assertEquals(object.get("status"), view.status());
        assertEquals(2L, view.currentStatus().observedGeneration());
    }

    /**
     * The status is held as its typed reading only: at 10,000 ImageDeploys its text beside it was a tenth of the
     * heap. A status of the schema's fields leaves no text in the view, and a status write still gets it whole.
     */
    @Test
    void anImageDeploysStatusOfTheSchemasFieldsIsHeldTypedWithoutItsText() throws Exception {
        JsonNode object = JSON.readTree("""
                {"apiVersion":"rekon.dev/v1alpha1","kind":"ImageDeploy","metadata":{"name":"web","namespace":"shop",
                "uid":"u-1","resourceVersion":"7","generation":2},
                "spec":{"deployment":{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"REF=app"}]}}}}},
                "status":{"observedGeneration":2,"deployment":"web",
                "images":[{"name":"app","image":"r/app@sha256:1","buildCounter":4,"buildTime":"2026-11-27T23:00:00Z",
                "imageUid":"i-1","appliedAt":"2026-11-27T23:01:00Z"}],
                "waiting":[{"name":"app","image":"r/app@sha256:2","buildCounter":5}],
                "history":[{"name":"app","image":"r/app@sha256:1","change":"deployed","at":"2026-11-27T23:02:00Z"}],
                "conditions":[{"type":"Ready","status":"True","reason":"RolledOut","message":"m",
                "lastTransitionTime":"2026-11-28T00:00:00Z","observedGeneration":2},
                {"type":"InSync","status":"True","reason":"InSync"}]}}""");

        ImageDeployView view = new ImageDeployFacet.Rekon().view(object);

        for (RecordComponent rc : ImageDeployView.class.getRecordComponents()) {
            if (rc.getType() == String.class) {
                String held = (String) rc.getAccessor().invoke(view);
                assertTrue(held == null || !held.contains("conditions") && !held.contains("sha256"),
                        rc.getName() + " holds the status as text: " + held);
            }
        }
        assertEquals(object.get("status"), view.status());
    }

    @Test
    void aDeploymentsImageDeployOwnerIsTyped() throws Exception {
        DeploymentView d = DeploymentView.fromJson(JSON.readTree("""
                {"metadata":{"name":"web","namespace":"shop","resourceVersion":"3","uid":"d-1",
                "labels":{"app.kubernetes.io/managed-by":"rekon"},
                "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"x","uid":"r-1"},
                {"apiVersion":"rekon.dev/v1alpha1","kind":"ImageDeploy","name":"web","uid":"u-1","controller":true}]},
                "spec":{"template":{"spec":{"containers":[{"name":"app","image":"r/app@sha256:1"}]}}}}"""));

        assertEquals(new DeploymentView.Owner("rekon.dev/v1alpha1", "ImageDeploy", "web", "u-1"), d.imageDeployOwner());
        assertTrue(d.ownedBy("u-1"));
        assertEquals("rekon.dev", d.imageDeployOwner().group());
    }

    /** The components of {@code type}, and of the records and lists it holds, whose type is a JSON tree. */
    private static void trees(Type type, String path, Set<Type> seen, List<String> out) {
        if (!seen.add(type)) {
            return;
        }
        if (type instanceof ParameterizedType p) {
            for (Type arg : p.getActualTypeArguments()) {
                trees(arg, path + "<>", seen, out);
            }
            trees(p.getRawType(), path, seen, out);
        } else if (type instanceof Class<?> c) {
            if (JsonNode.class.isAssignableFrom(c)) {
                out.add(path);
            } else if (c.isRecord()) {
                for (RecordComponent rc : c.getRecordComponents()) {
                    trees(rc.getGenericType(), path + "." + rc.getName(), seen, out);
                }
            }
        }
    }
}
