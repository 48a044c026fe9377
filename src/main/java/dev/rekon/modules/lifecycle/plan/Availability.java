package dev.rekon.modules.lifecycle.plan;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a module's manager object (the ModuleTemplate's {@code spec.manager}, usually its Deployment) is
 * available: condition {@code Available} true, or at least one available replica.
 */
final class Availability {

    private Availability() {
    }

    static boolean available(JsonNode object) {
        if (object == null) {
            return false;
        }
        JsonNode status = object.path("status");
        for (JsonNode c : status.path("conditions")) {
            if ("Available".equals(c.path("type").asText())) {
                return "True".equals(c.path("status").asText());
            }
        }
        return status.path("availableReplicas").asInt(0) > 0;
    }
}
