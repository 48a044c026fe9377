package dev.rekon.rollouts;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** The live Deployment as far as a rollout cares: its version for optimistic writes, images and owners. */
public record DeploymentView(String name, String resourceVersion, Map<String, String> containers,
        Map<String, String> initContainers, JsonNode ownerReferences) {

    public static DeploymentView fromJson(JsonNode d) {
        JsonNode pod = d.path("spec").path("template").path("spec");
        return new DeploymentView(d.path("metadata").path("name").asText(null),
                d.path("metadata").path("resourceVersion").asText(null), images(pod.path("containers")),
                images(pod.path("initContainers")), d.path("metadata").path("ownerReferences"));
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
