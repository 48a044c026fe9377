package dev.rekon.rollouts.view;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;


/**
 * The live Deployment as far as a rollout cares: its uid and version for guarded writes and deletes, images, owners, labels, its
 * rollout's progress (null when the object carries no generation), and the
 * builds Rekon applied to it (annotation {@value #APPLIED_BUILDS}, written in the same guarded write as the
 * images, so it is the record that keeps racing and late events from moving the Deployment backwards). A watch
 * holds one per Deployment, so it keeps typed fields and immutable maps only, no part of the object's tree.
 */
public record DeploymentView(String name, String resourceVersion, Map<String, String> containers,
        Map<String, String> initContainers, List<Owner> ownerReferences, Map<String, AppliedImage> applied,
        String namespace, Map<String, String> labels, String uid, RolloutProgress progress) {

    /** One entry of {@code metadata.ownerReferences}, as far as Rekon reads it. */
    public record Owner(String apiVersion, String kind, String name, String uid) {

        /** The group of its apiVersion ("" for the core group). */
        public String group() {
            return apiVersion == null || !apiVersion.contains("/") ? "" : apiVersion.substring(0, apiVersion.indexOf('/'));
        }
    }

    public DeploymentView {
        containers = frozen(containers);
        initContainers = frozen(initContainers);
        ownerReferences = List.copyOf(ownerReferences);
        labels = frozen(labels);
        // Kept in the annotation's order, which the status's images follow.
        applied = applied.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(applied));
    }

    /** An immutable copy without an entry object per key (Map.copyOf), unless it holds a null (a container without image). */
    private static <V> Map<String, V> frozen(Map<String, V> map) {
        if (map.isEmpty()) {
            return Map.of();
        }
        return map.containsValue(null) || map.containsKey(null) ? Collections.unmodifiableMap(new LinkedHashMap<>(map))
                : Map.copyOf(map);
    }

    public static final String APPLIED_BUILDS = "rekon.dev/applied-builds";

    private static final ObjectMapper JSON = new ObjectMapper();

    public static DeploymentView fromJson(JsonNode d) {
        JsonNode pod = d.path("spec").path("template").path("spec");
        JsonNode meta = d.path("metadata");
        return new DeploymentView(meta.path("name").asText(null), meta.path("resourceVersion").asText(null),
                images(pod.path("containers")), images(pod.path("initContainers")), owners(meta.path("ownerReferences")),
                appliedBuilds(meta.path("annotations").path(APPLIED_BUILDS).asText("")),
                meta.path("namespace").asText(null), labels(meta.path("labels")), meta.path("uid").asText(null),
                RolloutProgress.of(d));
    }

    private static Map<String, String> labels(JsonNode labels) {
        Map<String, String> out = new LinkedHashMap<>();
        labels.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** Whether Rekon labelled it as its own ({@code app.kubernetes.io/managed-by: rekon}). */
    public boolean managedByRekon() {
        return "rekon".equals(labels.get(RolloutNames.MANAGED_BY));
    }

    private static List<Owner> owners(JsonNode refs) {
        List<Owner> out = new ArrayList<>();
        refs.forEach(o -> out.add(new Owner(o.path("apiVersion").asText(""), o.path("kind").asText(""),
                o.path("name").asText(null), o.path("uid").asText(null))));
        return out;
    }

    /** The ImageDeploy owning it as controller (kind ImageDeploy, either group), or null. */
    public Owner imageDeployOwner() {
        for (Owner o : ownerReferences) {
            if ("ImageDeploy".equals(o.kind())) {
                return o;
            }
        }
        return null;
    }

    /** The annotation's entries by kpack Image name; an unreadable annotation counts as none (the status still has them). */
    static Map<String, AppliedImage> appliedBuilds(String annotation) {
        Map<String, AppliedImage> out = new LinkedHashMap<>();
        if (annotation.isBlank()) {
            return out;
        }
        try {
            for (JsonNode n : JSON.readTree(annotation)) {
                AppliedImage a = AppliedImage.fromJson(n);
                if (a.name() != null) {
                    out.put(a.name(), a);
                }
            }
        } catch (JsonProcessingException e) {
            out.clear();
        }
        return out;
    }

    public String imageOf(boolean init, String container) {
        return (init ? initContainers : containers).get(container);
    }

    public boolean ownedBy(String uid) {
        for (Owner o : ownerReferences) {
            if (uid != null && uid.equals(o.uid())) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> images(JsonNode list) {
        Map<String, String> out = new LinkedHashMap<>();
        for (JsonNode c : list) {
            out.put(c.path("name").asText(), c.path("image").asText(null));
        }
        return out;
    }
}
