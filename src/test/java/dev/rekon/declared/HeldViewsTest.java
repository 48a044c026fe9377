package dev.rekon.declared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.pipeline.LastPlans;

/** What the page plans a DeclaredState's objects from: as its last attempt read them, or as its plan left them. */
class HeldViewsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final DeclaredKey KEY = new DeclaredKey("apps", "site", false);

    static ObjectNode configMap(String name, String value) {
        ObjectNode o = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        o.putObject("metadata").put("name", name).put("namespace", "apps");
        o.putObject("data").put("value", value);
        return o;
    }

    static LiveObject live(String name, String value) {
        return new LiveObject(new ObjectRef("v1", "ConfigMap", "apps", name), KEY.owner(), configMap(name, value));
    }

    static Map<String, LiveObject> byKey(LiveObject... objects) {
        return java.util.Arrays.stream(objects).collect(java.util.stream.Collectors.toMap(o -> Identity.key(o.ref()),
                o -> o));
    }

    static DeclaredPlan plan(List<ObjectNode> apply, List<LiveObject> prune, List<LiveObject> orphanDeletes) {
        return new DeclaredPlan(KEY, null, DeclaredPlan.Action.APPLY, false, null, apply, prune, orphanDeletes, null,
                false, null, Reply.applied("RevisionApplied", "", List.of()));
    }

    @Test
    void aPlanOnlyMadeLeavesTheObjectsAsRead() {
        HeldViews read = new HeldViews(byKey(live("a", "1"), live("b", "1")), Set.of("/Namespace"), Set.of());
        DeclaredPlan p = plan(List.of(configMap("c", "1")), List.of(live("b", "1")), List.of());
        assertSame(read, HeldViews.of(new LastPlans.Last<>(p, read, false)));
    }

    @Test
    void aPlanCarriedOutLeavesWhatItAppliedAndNotWhatItDeleted() {
        HeldViews read = new HeldViews(byKey(live("a", "1"), live("b", "1"), live("stray", "1")), Set.of("/Namespace"),
                Set.of());
        DeclaredPlan p = plan(List.of(configMap("a", "2"), configMap("c", "1")), List.of(live("b", "1")),
                List.of(live("stray", "1")));
        HeldViews left = HeldViews.of(new LastPlans.Last<>(p, read, true));
        assertEquals(byKey(live("a", "2"), live("c", "1")), left.live());
        assertEquals(read.clusterKinds(), left.clusterKinds());
    }

    /** What the loop keeps in place of a plan written in full is what the page made of the plan before. */
    @Test
    void whatIsKeptOfAPlanCarriedOutIsHowItLeftTheObjects() {
        HeldViews read = new HeldViews(byKey(live("a", "1"), live("b", "1"), live("stray", "1")), Set.of("/Namespace"),
                Set.of());
        DeclaredPlan p = plan(List.of(configMap("a", "2"), configMap("c", "1")), List.of(live("b", "1")),
                List.of(live("stray", "1")));
        Object kept = new DeclaredStateReconciler().rememberCarriedOut(read, p, null);
        assertEquals(HeldViews.of(new LastPlans.Last<>(p, read, true)), kept);
        assertEquals(kept, HeldViews.of(new LastPlans.Last<>(null, (HeldViews) kept, true)));
    }

    /**
     * The loop keeps every DeclaredState's last plan; a resync pass's memo holds the orphan scan's lists of every
     * kind in every namespace and every revision read, so a plan naming its input's key kept all of that alive after
     * the pass, as long as any DeclaredState's plan of that pass was the last.
     */
    @Test
    void aPlanKeepsNoneOfWhatItsInputRead() {
        TipMemo pass = TipMemo.perInput();
        List<LiveObject> listed = List.of(live("elsewhere", "1"));
        ObjectRef configMaps = new ObjectRef("v1", "ConfigMap", null, "");
        assertSame(listed, pass.scan(null, List.of(configMaps), kind -> listed).get(configMaps));
        DeclaredKey key = new DeclaredKey("apps", "site", true, pass);
        DeclaredPlan p = new DeclaredPlan(key, null, DeclaredPlan.Action.NONE, false, null, List.of(), List.of(),
                List.of(), null, false, null, Reply.unchanged("Converged", "", List.of()));
        assertEquals(key, p.key());
        assertEquals(key.ref(), p.key().ref());
        assertNotSame(pass, p.key().tips());
        assertFalse(p.key().tips().resolves(), "a kept plan's key, were it run again, lists no tip");
    }

    static LiveObject withManagedFields(LiveObject o) {
        ObjectNode copy = o.object().deepCopy();
        ObjectNode meta = copy.with("metadata").put("uid", "u-" + o.ref().name()).put("resourceVersion", "42");
        meta.putObject("labels").put("app", "site");
        meta.putObject("annotations").put("kubernetes.io/service-account.name", "default");
        meta.putArray("ownerReferences").addObject().put("kind", "Deployment").put("name", "web");
        meta.putArray("managedFields").addObject().put("manager", "rekon").put("operation", "Apply")
                .putObject("fieldsV1").putObject("f:data").putObject("f:value");
        return new LiveObject(o.ref(), o.owner(), copy);
    }

    /**
     * What is kept of an object read or listed (each DeclaredState's objects for the page, a pass's orphan scan of
     * every kind) leaves out its managedFields, which nothing reads and which are most of a listed object; the rest
     * (its content, the uid and resourceVersion a delete is guarded by, what the orphan rules read) is kept.
     */
    @Test
    void whatIsKeptOfAnObjectLeavesOutItsManagedFields() {
        LiveObject read = withManagedFields(live("a", "1"));
        LiveObject kept = HeldViews.lean(read);
        ObjectNode expected = read.object().deepCopy();
        expected.with("metadata").remove("managedFields");
        assertEquals(expected, kept.object());
        assertEquals(read.ref(), kept.ref());
        assertEquals(read.owner(), kept.owner());
        assertEquals("u-a", kept.uid());
        assertEquals("42", kept.resourceVersion());
        assertFalse(read.object().with("metadata").path("managedFields").isMissingNode(), "the object read is left as is");
        LiveObject plain = live("b", "1");
        assertSame(plain, HeldViews.lean(plain));
        HeldViews held = new HeldViews(byKey(read), Set.of(), Set.of());
        assertEquals(expected, held.live().get(Identity.key(read.ref())).object());
    }
}
