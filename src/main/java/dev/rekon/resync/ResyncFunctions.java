package dev.rekon.resync;

import java.util.List;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.Outcome;
import dev.rekon.core.RekonConfig;
import dev.rekon.events.ApiServerEvent;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;

/**
 * The resync functions: a Knative PingSource's tick ({@value #PING_TYPE}, data {@code {"resync": <scope>}}) and
 * the same for curl users ({@value #TYPE}, data {@code {"scope": <scope>, "namespace": <optional>, "report":
 * <optional boolean>}}), where the scope is {@code all}, {@code rollouts}, {@code buildpacks}, {@code modules}, {@code kymas}, {@code declared} or {@code promotions}.
 * Both answer {@value #REPLY_TYPE} from {@link ResyncService}; malformed data is a 400 saying what to fix. With a
 * fan-out sink set, the pass sends its keys' reconcile events, named after this event's id.
 */
public class ResyncFunctions {

    public static final String PING_TYPE = "dev.knative.sources.ping";
    public static final String TYPE = "dev.rekon.resync";
    public static final String REPLY_TYPE = "dev.rekon.resync.result";

    @Inject
    ResyncService service;

    @Inject
    RekonConfig config;

    @Funq
    @CloudEventMapping(trigger = PING_TYPE, responseType = REPLY_TYPE, responseSource = "rekon/resync")
    public ResyncReply resyncPing(CloudEvent<JsonNode> event) {
        JsonNode d = ApiServerEvent.data(event);
        if (d == null || !d.isObject() || !d.path("resync").isTextual()) {
            throw new InvalidEventException(PING_TYPE + " needs the PingSource data {\"resync\": \"all\"} (or one"
                    + " area: rollouts, buildpacks, modules, kymas, declared, promotions) with contentType application/json");
        }
        return service.run(scope(d.get("resync").asText(), "resync"), ResyncScope.all(), event.id());
    }

    @Funq
    @CloudEventMapping(trigger = TYPE, responseType = REPLY_TYPE, responseSource = "rekon/resync")
    public ResyncReply resync(CloudEvent<JsonNode> event) {
        JsonNode d = ApiServerEvent.data(event);
        if (d != null && !d.isNull() && !d.isObject()) {
            throw new InvalidEventException(TYPE + " needs JSON data {\"scope\": \"all\"|\"rollouts\"|\"buildpacks\"|"
                    + "\"modules\"|\"kymas\"|\"declared\"|\"promotions\", \"namespace\": <optional>}");
        }
        JsonNode data = d == null ? com.fasterxml.jackson.databind.node.NullNode.instance : d;
        String scope = data.has("scope") ? text(data.get("scope"), "scope") : ResyncService.ALL;
        String namespace = data.hasNonNull("namespace") ? text(data.get("namespace"), "namespace") : null;
        if (namespace != null) {
            ApiServerEvent.requireObjectName("namespace", namespace);
        }
        JsonNode report = data.path("report");
        if (!report.isMissingNode() && !report.isBoolean()) {
            throw new InvalidEventException("\"report\" must be true or false, not " + report);
        }
        String checked = scope(scope, "scope");
        NamespacePolicy policy = config.namespacePolicy();
        if (namespace != null && !policy.allows(namespace)) {
            return new ResyncReply(Outcome.REJECTED, NamespacePolicy.REASON, policy.refusal(namespace), checked,
                    namespace, List.of());
        }
        return service.run(checked, new ResyncScope(namespace, report.asBoolean(false)), event.id());
    }

    private static String scope(String value, String field) {
        if (!ResyncService.SCOPES.contains(value)) {
            throw new InvalidEventException("\"" + field + "\" must be one of " + ResyncService.ALL + ", "
                    + String.join(", ", new java.util.TreeSet<>(ResyncService.SCOPES).tailSet(ResyncService.ALL, false))
                    + ", not '" + value + "'");
        }
        return value;
    }

    private static String text(JsonNode v, String field) {
        if (!v.isTextual() || v.asText().isBlank()) {
            throw new InvalidEventException("\"" + field + "\" must be a non-empty string, not " + v);
        }
        return v.asText();
    }
}
