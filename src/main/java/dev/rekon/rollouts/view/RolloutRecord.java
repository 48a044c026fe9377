package dev.rekon.rollouts.view;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One completed rollout in an ImageDeploy's {@code status.history}: the image of one referenced (kpack or
 * promoted) Image that its Deployment finished rolling out, what that was to this ImageDeploy ({@value #DEPLOYED}:
 * its first image of that name, {@value #UPGRADED}: a build it never ran, {@value #ROLLED_BACK}: a build it ran
 * before), and when.
 */
public record RolloutRecord(String name, String image, String change, Instant at) {

    public static final String DEPLOYED = "deployed";
    public static final String UPGRADED = "upgraded";
    public static final String ROLLED_BACK = "rolledback";

    private static final ObjectMapper JSON = new ObjectMapper();

    public static RolloutRecord fromJson(JsonNode n) {
        String at = n.path("at").asText(null);
        return new RolloutRecord(n.path("name").asText(null), n.path("image").asText(null),
                n.path("change").asText(null), at == null ? null : Instant.parse(at));
    }

    public ObjectNode toJson() {
        ObjectNode n = JSON.createObjectNode();
        n.put("name", name);
        n.put("image", image);
        n.put("change", change);
        if (at != null) {
            n.put("at", at.toString());
        }
        return n;
    }
}
