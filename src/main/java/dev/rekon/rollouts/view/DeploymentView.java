package dev.rekon.rollouts.view;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;


/**
 * The live Deployment as far as a rollout cares: its uid and version for guarded writes and deletes, images, owners, labels, its
 * rollout's progress (null when the object carries no generation), and the
 * builds Rekon applied to it (annotation {@value #APPLIED_BUILDS}, written in the same guarded write as the
 * images, so it is the record that keeps racing and late events from moving the Deployment backwards).
 */
public record DeploymentView(String name, String resourceVersion, Map<String, String> containers,
        Map<String, String> initContainers, JsonNode ownerReferences, Map<String, AppliedImage> applied,
        String namespace, Map<String, String> labels, String uid, RolloutProgress progress) {

    public static final String APPLIED_BUILDS = "rekon.dev/applied-builds";

    private static final ObjectMapper JSON = new ObjectMapper();

    public static DeploymentView fromJson(JsonNode d) {
        JsonNode pod = d.path("spec").path("template").path("spec");
        JsonNode meta = d.path("metadata");
        return new DeploymentView(meta.path("name").asText(null), meta.path("resourceVersion").asText(null),
                images(pod.path("containers")), images(pod.path("initContainers")), meta.path("ownerReferences"),
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

    /** The ImageDeploy owning it as controller (kind ImageDeploy, either group), or null. */
    public JsonNode imageDeployOwner() {
        for (JsonNode o : ownerReferences) {
            if ("ImageDeploy".equals(o.path("kind").asText())) {
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
        for (JsonNode o : ownerReferences) {
            if (uid != null && uid.equals(o.path("uid").asText())) {
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
