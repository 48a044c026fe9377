package dev.rekon.declared.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;

/**
 * What an orphan scan keeps of an object it listed: its identity, what a delete of it is guarded by, and the facts
 * {@link OrphanRules} decides from, read once at the edge. A pass shares its lists of every namespaced kind in every
 * namespace until its last DeclaredState is planned, so each listed object is kept as a few strings, not as its
 * metadata tree (labels, annotations, owner references: at 10,000 ImageDeploys, most of the declared pass's heap).
 *
 * @param owned        it has an ownerReference (another object's, never an orphan)
 * @param deleting     it has a deletionTimestamp
 * @param rekonManaged Rekon manages it for someone (managed by {@code rekon}, or a DeclaredState's or a module's label)
 * @param tokenSecret  a ServiceAccount token Secret (its type, or the annotation its controller sets)
 */
public record Scanned(ObjectRef ref, String uid, String resourceVersion, boolean owned, boolean deleting,
        boolean rekonManaged, boolean tokenSecret) {

    /** What is kept of {@code o}, a listed object (metadata only, or whole). */
    public static Scanned of(LiveObject o) {
        JsonNode meta = o.object() == null ? JsonNodeFactory.instance.objectNode() : o.object().path("metadata");
        JsonNode labels = meta.path("labels");
        boolean rekon = "rekon".equals(labels.path(ManifestObjects.MANAGED_BY).asText(null))
                || labels.has(DesiredObjects.OWNER_LABEL) || labels.has("rekon.dev/module");
        boolean token = "Secret".equals(o.ref().kind()) && ("kubernetes.io/service-account-token".equals(
                o.object() == null ? null : o.object().path("type").asText(null))
                || meta.path("annotations").has("kubernetes.io/service-account.name"));
        ObjectRef r = o.ref();
        // A fleet's lists name a few namespaces many times over: one copy of each.
        ObjectRef ref = r.namespace() == null ? r
                : new ObjectRef(r.apiVersion(), r.kind(), r.namespace().intern(), r.name());
        return new Scanned(ref, meta.path("uid").asText(null), meta.path("resourceVersion").asText(null),
                meta.path("ownerReferences").size() > 0, meta.hasNonNull("deletionTimestamp"), rekon, token);
    }

    /** The object as a delete of it is made: its identity, guarded by its uid and resourceVersion. */
    public LiveObject live() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("apiVersion", ref.apiVersion())
                .put("kind", ref.kind());
        ObjectNode meta = o.putObject("metadata").put("name", ref.name());
        if (ref.namespace() != null) {
            meta.put("namespace", ref.namespace());
        }
        if (uid != null) {
            meta.put("uid", uid);
        }
        if (resourceVersion != null) {
            meta.put("resourceVersion", resourceVersion);
        }
        return new LiveObject(ref, null, o);
    }
}
