package dev.rekon.buildpacks.view;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.ObjectRef;

/** What Rekon reads of a Builder or ClusterBuilder: its {@code spec.order} as written, and its status. */
public record BuilderView(String kind, String namespace, String name, long generation, List<List<BuilderSpecRef>> order,
        String serviceAccountNamespace, String serviceAccountName, JsonNode status) {

    public static final String BUILDER = "Builder";
    public static final String CLUSTER_BUILDER = "ClusterBuilder";

    public BuilderView {
        order = order.stream().map(List::copyOf).toList();
    }

    public static BuilderView of(JsonNode object) {
        JsonNode meta = object.path("metadata");
        List<List<BuilderSpecRef>> order = new ArrayList<>();
        for (JsonNode entry : object.path("spec").path("order")) {
            List<BuilderSpecRef> group = new ArrayList<>();
            for (JsonNode g : entry.path("group")) {
                group.add(new BuilderSpecRef(text(g, "id"), text(g, "version"), g.path("optional").asBoolean(false),
                        text(g, "kind"), text(g, "name"), text(g, "image")));
            }
            order.add(group);
        }
        String namespace = text(meta, "namespace");
        JsonNode spec = object.path("spec");
        String kind = object.path("kind").asText();
        boolean cluster = CLUSTER_BUILDER.equals(kind);
        String saNamespace = cluster ? text(spec.path("serviceAccountRef"), "namespace") : namespace;
        String saName = cluster ? text(spec.path("serviceAccountRef"), "name")
                : first(text(spec, "serviceAccountName"), text(spec, "serviceAccount"), "default");
        return new BuilderView(kind, namespace, meta.path("name").asText(), meta.path("generation").asLong(), order,
                saNamespace, saName, object.get("status"));
    }

    public boolean isClusterBuilder() {
        return CLUSTER_BUILDER.equals(kind);
    }

    public ObjectRef ref() {
        return new ObjectRef(BuildpackView.API_VERSION, kind, namespace, name);
    }

    /** The buildpackage images its order names directly; these are read from the registry to resolve it. */
    public List<String> images() {
        return order.stream().flatMap(List::stream).filter(BuilderSpecRef::hasImage).map(BuilderSpecRef::image)
                .distinct().toList();
    }

    private static String first(String... values) {
        for (String v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || !v.isTextual() || v.asText().isBlank() ? null : v.asText();
    }
}
