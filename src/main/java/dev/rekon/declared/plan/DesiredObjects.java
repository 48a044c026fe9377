package dev.rekon.declared.plan;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.declared.source.DeclaredDocument;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.ManifestBodies;
import dev.rekon.manifests.ManifestObjects;

/**
 * A revision's documents as the objects to apply: an object of a namespaced kind without a namespace goes to the
 * first of {@code spec.namespaces}; each is labelled as the DeclaredState's ({@value #OWNER_LABEL}). A kind is
 * cluster-scoped when the engine knows it as such, the server serves it so, or a CRD of the same revision
 * declares it {@code Cluster}.
 */
public final class DesiredObjects {

    public static final String OWNER_LABEL = "rekon.dev/declared-state";
    public static final String ADOPT = "rekon.dev/adopt";

    /** One object to apply and the document it came from. */
    public record Desired(ObjectRef ref, ObjectNode object, DeclaredDocument source) {

        public boolean adopt() {
            return "true".equals(source.object().path("metadata").path("annotations").path(ADOPT).asText());
        }
    }

    private DesiredObjects() {
    }

    public static List<Desired> of(List<DeclaredDocument> documents, String defaultNamespace, String owner,
            Set<String> clusterKinds) {
        Set<String> cluster = new java.util.HashSet<>(clusterKinds);
        for (DeclaredDocument d : documents) {
            ObjectNode o = d.object();
            if ("CustomResourceDefinition".equals(o.path("kind").asText())
                    && "Cluster".equals(o.path("spec").path("scope").asText())) {
                cluster.add(o.path("spec").path("group").asText() + "/" + o.path("spec").path("names").path("kind").asText());
            }
        }
        List<Desired> out = new ArrayList<>(documents.size());
        for (DeclaredDocument d : documents) {
            ObjectNode o = ManifestObjects.labelled(d.object(), Map.of(OWNER_LABEL, owner));
            String kind = o.path("kind").asText();
            boolean clusterScoped = ManifestObjects.clusterKind(kind)
                    || cluster.contains(Identity.group(o.path("apiVersion").asText()) + "/" + kind);
            if (clusterScoped) {
                o.with("metadata").remove("namespace");
            } else if (o.path("metadata").path("namespace").asText("").isBlank() && defaultNamespace != null) {
                o.with("metadata").put("namespace", defaultNamespace);
            }
            out.add(new Desired(ManifestObjects.ref(o), o, d));
        }
        return out;
    }

    /**
     * The whole objects of the documents a large revision holds by identity alone: read again, with the metadata
     * planned for them (labels, namespace); the others stand for themselves.
     */
    public static ManifestBodies bodies(List<Desired> desired) {
        Map<ObjectNode, DeclaredDocument> readAgain = new IdentityHashMap<>();
        desired.stream().filter(d -> d.source().body() != null).forEach(d -> readAgain.put(d.object(), d.source()));
        if (readAgain.isEmpty()) {
            return ManifestBodies.WHOLE;
        }
        return planned -> {
            DeclaredDocument d = readAgain.get(planned);
            if (d == null) {
                return planned;
            }
            ObjectNode whole = d.whole();
            whole.set("metadata", planned.get("metadata").deepCopy());
            return whole;
        };
    }

    /** Documents that declare the same object twice, each pair named by file and line. */
    public static List<String> duplicates(List<Desired> desired) {
        Map<String, Desired> seen = new LinkedHashMap<>();
        List<String> out = new ArrayList<>();
        for (Desired d : desired) {
            Desired first = seen.putIfAbsent(Identity.key(d.ref()), d);
            if (first != null) {
                out.add(d.ref() + " in " + first.source().where() + " and " + d.source().where());
            }
        }
        return out;
    }
}
