package dev.rekon.manifests.plan;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.ManifestObjects;

/**
 * Whether every manifest object is of a kind the server can take, decided before any write: a kind discovery
 * does not find is refused ({@value #REASON}), unless a CustomResourceDefinition among the same objects declares
 * it (that CRD is applied first and waited for). Without this an unserved kind failed mid-apply, after the
 * objects sorting before it were written.
 */
public final class ServedKinds {

    public static final String REASON = "KindNotServed";

    private ServedKinds() {
    }

    /** How discovery names a kind: {@code <apiVersion>/<Kind>}, such as {@code apps/v1/Deployment}. */
    public static String key(String apiVersion, String kind) {
        return apiVersion + "/" + kind;
    }

    public static String key(ObjectRef ref) {
        return key(ref.apiVersion(), ref.kind());
    }

    /**
     * The first object of a kind in {@code unserved} that no CRD among {@code objects} declares, or empty.
     *
     * @param unserved the kinds among the objects' that discovery does not find, as {@link #key}
     */
    public static Optional<ObjectNode> firstUnserved(List<ObjectNode> objects, Set<String> unserved) {
        if (unserved.isEmpty()) {
            return Optional.empty();
        }
        Set<String> declared = declaredByCrds(objects);
        return objects.stream().filter(o -> {
            ObjectRef ref = ManifestObjects.ref(o);
            return unserved.contains(key(ref)) && !declared.contains(key(ref))
                    && !declared.contains(Identity.group(ref.apiVersion()) + "/*/" + ref.kind());
        }).findFirst();
    }

    /**
     * What the CRDs among the objects serve: {@code <group>/<version>/<Kind>} for each version not marked
     * {@code served: false}, or the group and kind in any version when a CRD lists no versions.
     */
    static Set<String> declaredByCrds(List<ObjectNode> objects) {
        Set<String> out = new HashSet<>();
        for (ObjectNode o : objects) {
            if (!"CustomResourceDefinition".equals(o.path("kind").asText())) {
                continue;
            }
            JsonNode spec = o.path("spec");
            String group = spec.path("group").asText();
            String kind = spec.path("names").path("kind").asText();
            if (!spec.path("versions").isArray() || spec.path("versions").isEmpty()) {
                out.add(group + "/*/" + kind);
            }
            for (JsonNode v : spec.path("versions")) {
                if (v.path("served").asBoolean(true)) {
                    out.add(key(group + "/" + v.path("name").asText(), kind));
                }
            }
        }
        return out;
    }

    /**
     * The kinds among {@code refs}, as {@link #key}, that {@code serves} (discovery: apiVersion, kind) does not
     * find, each asked once; the input of {@link #firstUnserved}.
     */
    public static Set<String> unserved(List<ObjectRef> refs,
            java.util.function.BiPredicate<String, String> serves) {
        Set<String> out = new HashSet<>();
        for (String kind : kindsOf(refs)) {
            ObjectRef any = refs.stream().filter(r -> key(r).equals(kind)).findFirst().orElseThrow();
            if (!serves.test(any.apiVersion(), any.kind())) {
                out.add(kind);
            }
        }
        return out;
    }

    /** The distinct kinds of the objects, as {@link #key}, for asking discovery about each once. */
    public static Set<String> kindsOf(List<ObjectRef> refs) {
        Set<String> out = new java.util.LinkedHashSet<>();
        refs.forEach(r -> out.add(key(r)));
        return out;
    }
}
