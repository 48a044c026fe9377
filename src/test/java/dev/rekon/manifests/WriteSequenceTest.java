package dev.rekon.manifests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RefusedException;
import dev.rekon.manifests.apply.InventoryStore;
import dev.rekon.manifests.apply.ManifestWriter;
import dev.rekon.manifests.apply.WriteSequence;
import dev.rekon.manifests.plan.ManifestWrites;
import dev.rekon.manifests.plan.WriteResult;

/**
 * The one write sequence of both areas, as a table: given what a plan writes and which write the server refuses,
 * these writes in this order, and the owner's record the plan decides for what the object writes came to.
 */
class WriteSequenceTest {

    static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");
    static final ObjectMapper JSON = new ObjectMapper();
    static final ObjectNode CRD = object("""
            {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
             "metadata": {"name": "widgets.rekon.dev"}}""");
    static final ObjectNode CM = object("""
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "team-a", "name": "settings"}}""");
    static final LiveObject GONE = new LiveObject(new ObjectRef("v1", "ConfigMap", "team-a", "gone"), "o", CM);
    static final LiveObject ORPHAN = new LiveObject(new ObjectRef("v1", "Secret", "team-a", "left"), null, CM);

    /**
     * A plan as the areas make them. What it records after a refusal is named after it, where the inventory is kept
     * with the owner's status (a DeclaredState); a module's plan records nothing then ({@code forget}).
     */
    record Plan(boolean addFinalizer, String writeAhead, List<ObjectNode> apply, List<LiveObject> deletes,
            String written, boolean forget, boolean removeFinalizer) implements ManifestWrites<String> {

        @Override
        public String record(WriteResult result) {
            if (result instanceof WriteResult.Refused r) {
                return forget ? null : "Ready False ApiRefused: " + r.message() + " at " + r.at();
            }
            return written;
        }
    }

    record Case(String name, Plan plan, String refuse, List<String> writes, boolean refused) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("finalizer, inventory ahead, staged apply, prune, orphan deletes, record, finalizer removed",
                        new Plan(true, "ahead", List.of(CRD, CM), List.of(GONE, ORPHAN), "status", false, true), null,
                        List.of("finalizer +", "record ahead", "apply " + ref(CRD), "established " + ref(CRD),
                                "apply " + ref(CM), "delete " + GONE.ref(), "delete " + ORPHAN.ref(), "record status",
                                "finalizer -"), false),
                new Case("a converged owner writes nothing",
                        new Plan(false, null, List.of(), List.of(), null, false, false), null, List.of(), false),
                new Case("only the record the plan decides (a status that changed)",
                        new Plan(false, null, List.of(), List.of(), "status", false, false), null,
                        List.of("record status"), false),
                new Case("a refused apply: the plan's record of the refusal, nothing after it",
                        new Plan(true, "ahead", List.of(CRD, CM), List.of(GONE), "status", false, true), "apply " + ref(CM),
                        List.of("finalizer +", "record ahead", "apply " + ref(CRD), "established " + ref(CRD),
                                "record Ready False ApiRefused: no apply " + ref(CM) + " at " + NOW), true),
                new Case("a refused prune: the same",
                        new Plan(false, null, List.of(), List.of(GONE, ORPHAN), "status", false, false),
                        "delete " + GONE.ref(), List.of("record Ready False ApiRefused: no delete " + GONE.ref() + " at "
                                + NOW), true),
                new Case("an uninstall deletes, then forgets the inventory",
                        new Plan(false, null, List.of(), List.of(GONE), null, true, false), null,
                        List.of("delete " + GONE.ref(), "forget"), false),
                new Case("a refused uninstall keeps the inventory",
                        new Plan(false, null, List.of(), List.of(GONE), null, true, false), "delete " + GONE.ref(),
                        List.of(), true),
                new Case("the write-ahead, the objects, then the inventory that follows",
                        new Plan(false, "ahead", List.of(CM), List.of(GONE), "after", false, false), null,
                        List.of("record ahead", "apply " + ref(CM), "delete " + GONE.ref(), "record after"), false));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void writesInOrder(Case c) {
        List<String> writes = new ArrayList<>();
        Cluster cluster = new Cluster(writes, c.refuse());
        InventoryStore<String> store = new InventoryStore<>() {
            @Override
            public void finalizer(boolean present) {
                writes.add("finalizer " + (present ? "+" : "-"));
            }

            @Override
            public void write(String record) {
                writes.add("record " + record);
            }

            @Override
            public void forget() {
                writes.add("forget");
            }
        };
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        if (c.refused()) {
            assertThrows(RefusedException.class, () -> WriteSequence.carryOut(c.plan(), () -> cluster, store, clock),
                    "the refusal goes on to the loop, which answers it rejected");
        } else {
            assertInstanceOf(WriteResult.Written.class, WriteSequence.carryOut(c.plan(), () -> cluster, store, clock));
        }
        assertEquals(c.writes(), writes.stream().filter(w -> !w.startsWith("no ")).toList());
    }

    static ObjectNode object(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ObjectRef ref(ObjectNode o) {
        return ManifestObjects.ref(o);
    }

    /** Objects written in a list; the write named {@code refuse} is refused for good, as RBAC refuses it. */
    record Cluster(List<String> writes, String refuse) implements ManifestWriter {

        private void write(String what, ObjectRef ref) {
            if (what.equals(refuse)) {
                throw new RefusedException(403, ref, "no " + what, null);
            }
            writes.add(what);
        }

        @Override
        public void apply(ObjectNode object) {
            write("apply " + ref(object), ref(object));
        }

        @Override
        public void awaitEstablished(ObjectRef crd) {
            writes.add("established " + crd);
        }

        @Override
        public void delete(LiveObject object) {
            write("delete " + object.ref(), object.ref());
        }
    }
}
