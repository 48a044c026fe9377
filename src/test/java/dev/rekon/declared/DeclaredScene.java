package dev.rekon.declared;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.plan.DeclaredPlanner;
import dev.rekon.declared.plan.DeclaredViews;
import dev.rekon.declared.plan.DesiredObjects;
import dev.rekon.declared.plan.Scanned;
import dev.rekon.declared.plan.SourceState;
import dev.rekon.declared.source.DeclaredDocument;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;

/** A DeclaredState, its branch and its cluster as plain values, for planner tables. */
final class DeclaredScene {

    static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    static final ObjectMapper YAML = new YAMLMapper();
    static final String OWNER = "team-a.apps";

    ObjectNode state;
    final List<DeclaredDocument> documents = new ArrayList<>();
    final Map<String, LiveObject> live = new HashMap<>();
    List<LiveObject> scanned;
    final Set<String> protectedRefs = new HashSet<>();
    /** Kinds discovery does not find, as {@code <apiVersion>/<Kind>}. */
    final Set<String> unserved = new HashSet<>();
    SourceState source;
    NamespacePolicy policy = NamespacePolicy.parse("*");
    boolean cross;
    Instant now = NOW;

    DeclaredScene() {
        state = (ObjectNode) yaml("""
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {namespace: team-a, name: apps, uid: u-1, generation: 2, resourceVersion: "7",
                           finalizers: [rekon.dev/declared-state]}
                spec:
                  git: {url: "http://git.local/apps.git", branch: main}
                  namespaces: [team-a]
                """);
    }

    static ObjectNode yaml(String text) {
        try {
            return (ObjectNode) YAML.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode configMap(String namespace, String name, String value) {
        ObjectNode o = yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {k: " + value + "}\n");
        if (namespace != null) {
            o.with("metadata").put("namespace", namespace);
        }
        return o;
    }

    DeclaredScene declares(String file, ObjectNode... objects) {
        int line = 1;
        for (ObjectNode o : objects) {
            documents.add(new DeclaredDocument(file, line, o));
            line += 5;
        }
        return this;
    }

    /** The object as the cluster would hold it after Rekon applied it (labelled, versioned). */
    DeclaredScene applied(ObjectNode o) {
        ObjectNode copy = ManifestObjects.labelled(o, Map.of(DesiredObjects.OWNER_LABEL, OWNER));
        if (!copy.path("metadata").has("namespace")) {
            copy.with("metadata").put("namespace", "team-a");
        }
        copy.with("metadata").put("uid", "uid-" + copy.at("/metadata/name").asText()).put("resourceVersion", "41");
        return exists(copy, OWNER);
    }

    DeclaredScene exists(ObjectNode o, String owner) {
        ObjectRef ref = ManifestObjects.ref(o);
        live.put(Identity.key(ref), new LiveObject(ref, owner, o));
        return this;
    }

    /** The status of a DeclaredState that applied these objects at commit {@code commit}. */
    DeclaredScene recorded(String commit, ObjectRef... refs) {
        ObjectNode status = state.putObject("status").put("revision", "main@sha1:" + commit);
        var entries = status.putObject("inventory").putArray("entries");
        for (ObjectRef r : refs) {
            entries.addObject().put("id", dev.rekon.manifests.inventory.InventoryCodec.id(r)).put("v", "v1");
        }
        return this;
    }

    DeclaredScene spec(String field, Object value) {
        ObjectNode spec = state.with("spec");
        if (value instanceof Boolean b) {
            spec.put(field, b);
        } else {
            spec.set(field, YAML.valueToTree(value));
        }
        return this;
    }

    DeclaredPlan plan() {
        SourceState s = source != null ? source : new SourceState.Read("c0ffee", documents);
        DeclaredStateView view = DeclaredStateView.of(state);
        if (view.deleting()) {
            s = new SourceState.Deleting();
        }
        return DeclaredPlanner.plan(new DeclaredViews(new DeclaredKey("team-a", "apps", scanned != null), view, s, live,
                Set.of(), unserved, scanned == null ? null : scanned.stream().map(Scanned::of).toList(), protectedRefs,
                policy, cross, now));
    }

    static ObjectRef cm(String name) {
        return new ObjectRef("v1", "ConfigMap", "team-a", name);
    }
}
