package dev.rekon.declared;

import com.fasterxml.jackson.databind.JsonNode;

import jakarta.inject.Inject;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The functions of declared state from git: ApiServerSource events for DeclaredStates (added, changed, deleted)
 * and the manual {@value #RECONCILE_TYPE} event with {@code {"namespace", "name"}}, each bringing that
 * DeclaredState in line with its branch tip ({@link DeclaredStateService}). Each answers with a
 * {@value #REPLY_TYPE} CloudEvent.
 */
public class DeclaredStateFunctions {

    public static final String RECONCILE_TYPE = "dev.rekon.declared.reconcile";
    public static final String REPLY_TYPE = "dev.rekon.declared.result";
    static final String SOURCE = "rekon/declared";

    @Inject
    DeclaredStateService service;

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = DeclaredKey.KIND))
    public Reply declaredState(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        return service.changed(e.namespace(), e.name());
    }

    @Funq
    @CloudEventMapping(trigger = RECONCILE_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply declaredReconcile(CloudEvent<JsonNode> event) {
        JsonNode data = ApiServerEvent.data(event);
        String namespace = data == null ? "" : data.path("namespace").asText("");
        String name = data == null ? "" : data.path("name").asText("");
        if (namespace.isBlank() || name.isBlank()) {
            throw new InvalidEventException(RECONCILE_TYPE + " needs JSON data {\"namespace\": \"<namespace>\","
                    + " \"name\": \"<DeclaredState name>\"}");
        }
        return service.changed(namespace, name);
    }
}
