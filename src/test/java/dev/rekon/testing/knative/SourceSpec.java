package dev.rekon.testing.knative;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * One event source of {@code knative/eventing/}, as the adapter it becomes: an ApiServerSource object, whose
 * adapter configuration is derived as Knative's controller derives it (each resource guessed from its kind, the
 * namespace selector resolved to the namespaces it matches now, the label selectors rendered as label-selector
 * strings), or a Deployment running Knative's adapter, whose configuration is written out in its
 * {@code K_SOURCE_CONFIG}. Either way, what the tests run is what the shipped file says.
 */
public record SourceSpec(String name, String namespace, String serviceAccount, String mode, List<Watched> resources,
        JsonNode namespaceSelector, boolean allNamespaces) {

    /** A watched resource: its group, version, the resource the adapter asks for, and an optional label selector. */
    public record Watched(String group, String version, String kind, String resource, String selector) {
    }

    /** Every ApiServerSource and adapter Deployment in these files, by name. */
    public static List<SourceSpec> load(KubernetesClient client, Path... files) {
        List<SourceSpec> specs = new ArrayList<>();
        for (Path file : files) {
            for (HasMetadata item : read(client, file)) {
                JsonNode o = Serialization.jsonMapper().valueToTree(item);
                if ("ApiServerSource".equals(item.getKind())) {
                    specs.add(fromApiServerSource(o));
                } else if ("Deployment".equals(item.getKind())) {
                    fromDeployment(o).ifPresent(specs::add);
                }
            }
        }
        return specs;
    }

    public static SourceSpec named(List<SourceSpec> specs, String name) {
        return specs.stream().filter(s -> s.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no source " + name + " in " + specs.stream()
                        .map(SourceSpec::name).toList()));
    }

    private static SourceSpec fromApiServerSource(JsonNode o) {
        JsonNode spec = o.path("spec");
        List<Watched> resources = new ArrayList<>();
        for (JsonNode r : spec.path("resources")) {
            String[] gv = r.path("apiVersion").asText().split("/");
            String group = gv.length == 2 ? gv[0] : "";
            String version = gv[gv.length - 1];
            String kind = r.path("kind").asText();
            resources.add(new Watched(group, version, kind, KindGuess.resource(kind), selector(r.get("selector"))));
        }
        JsonNode ns = spec.get("namespaceSelector");
        boolean all = ns != null && ns.path("matchLabels").isEmpty() && ns.path("matchExpressions").isEmpty();
        return new SourceSpec(o.path("metadata").path("name").asText(), o.path("metadata").path("namespace").asText(),
                spec.path("serviceAccountName").asText("default"), spec.path("mode").asText("Reference"), resources,
                ns, all);
    }

    private static java.util.Optional<SourceSpec> fromDeployment(JsonNode o) {
        JsonNode pod = o.path("spec").path("template").path("spec");
        for (JsonNode env : pod.path("containers").path(0).path("env")) {
            if ("K_SOURCE_CONFIG".equals(env.path("name").asText())) {
                JsonNode config = readJson(env.path("value").asText());
                List<Watched> resources = new ArrayList<>();
                for (JsonNode r : config.path("resources")) {
                    JsonNode gvr = r.path("gvr");
                    resources.add(new Watched(gvr.path("Group").asText(), gvr.path("Version").asText(), null,
                            gvr.path("Resource").asText(), r.path("selector").asText(null)));
                }
                return java.util.Optional.of(new SourceSpec(o.path("metadata").path("name").asText(),
                        o.path("metadata").path("namespace").asText(), pod.path("serviceAccountName").asText("default"),
                        config.path("mode").asText("Reference"), resources, null,
                        config.path("allNamespaces").asBoolean(false)));
            }
        }
        return java.util.Optional.empty();
    }

    /** The same source in another mode (Resource or Reference), as a user would switch it. */
    public SourceSpec inMode(String newMode) {
        return new SourceSpec(name, namespace, serviceAccount, newMode, resources, namespaceSelector, allNamespaces);
    }

    /** The namespaces the adapter watches, resolved now as Knative's controller resolves them at each reconcile. */
    public List<String> namespaces(KubernetesClient client) {
        if (allNamespaces) {
            return client.namespaces().list().getItems().stream().map(n -> n.getMetadata().getName()).sorted().toList();
        }
        if (namespaceSelector == null) {
            return List.of(namespace);
        }
        LabelSelector selector = Serialization.jsonMapper().convertValue(namespaceSelector, LabelSelector.class);
        return client.namespaces().withLabelSelector(selector).list().getItems().stream()
                .map(n -> n.getMetadata().getName()).sorted().toList();
    }

    /** The adapter's K_SOURCE_CONFIG (knative.dev/eventing pkg/adapter/apiserver Config). */
    public String sourceConfig(KubernetesClient client) {
        ObjectNode config = Serialization.jsonMapper().createObjectNode();
        ArrayNode namespaces = config.putArray("namespaces");
        if (!allNamespaces) {
            namespaces(client).forEach(namespaces::add);
        }
        config.put("allNamespaces", allNamespaces);
        ArrayNode list = config.putArray("resources");
        for (Watched w : resources) {
            ObjectNode r = list.addObject();
            r.putObject("gvr").put("Group", w.group()).put("Version", w.version()).put("Resource", w.resource());
            if (w.selector() != null) {
                r.put("selector", w.selector());
            }
        }
        config.put("mode", mode);
        return config.toString();
    }

    /** A LabelSelector as labels.Selector.String() renders it: requirements sorted by key. */
    static String selector(JsonNode s) {
        if (s == null || s.isNull()) {
            return null;
        }
        TreeMap<String, String> byKey = new TreeMap<>();
        s.path("matchLabels").fields().forEachRemaining(e -> byKey.put(e.getKey(), e.getKey() + "=" + e.getValue().asText()));
        for (JsonNode e : s.path("matchExpressions")) {
            String key = e.path("key").asText();
            List<String> values = new ArrayList<>();
            e.path("values").forEach(v -> values.add(v.asText()));
            values.sort(null);
            byKey.put(key, switch (e.path("operator").asText()) {
                case "Exists" -> key;
                case "DoesNotExist" -> "!" + key;
                case "In" -> key + " in (" + String.join(",", values) + ")";
                case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
                default -> throw new IllegalArgumentException("operator " + e.path("operator").asText());
            });
        }
        return byKey.isEmpty() ? null : String.join(",", byKey.values());
    }

    private static List<HasMetadata> read(KubernetesClient client, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return client.load(in).items();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    private static JsonNode readJson(String json) {
        try {
            return Serialization.jsonMapper().readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("K_SOURCE_CONFIG is not JSON: " + json, e);
        }
    }
}
