package dev.rekon.declared;

import com.fasterxml.jackson.databind.JsonNode;

import jakarta.inject.Inject;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.Reply;
import dev.rekon.declared.plan.DesiredObjects;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.web.OutgoingEvent;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The functions of declared state from git: ApiServerSource events for DeclaredStates (added, changed, deleted),
 * for the Deployments, StatefulSets, DaemonSets and Jobs they applied (a rollout that finished, an object deleted by
 * hand), and the manual {@value #RECONCILE_TYPE} event with {@code {"namespace", "name"}}, each bringing that
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
        // A delete's version is the last one the watch may still hold as present: read it from the apiserver.
        String version = e.object() == null || e.verb() == ApiServerEvent.Verb.DELETE ? null
                : e.object().path("metadata").path("resourceVersion").asText(null);
        return service.stateChanged(e.namespace(), e.name(), version);
    }

    /** A Deployment a DeclaredState applied changed or went away (its rollout, a hand's delete). */
    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "Deployment"))
    public Reply declaredDeployment(CloudEvent<JsonNode> event) {
        return appliedObject(event);
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "StatefulSet"))
    public Reply declaredStatefulSet(CloudEvent<JsonNode> event) {
        return appliedObject(event);
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "DaemonSet"))
    public Reply declaredDaemonSet(CloudEvent<JsonNode> event) {
        return appliedObject(event);
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "Job"))
    public Reply declaredJob(CloudEvent<JsonNode> event) {
        return appliedObject(event);
    }

    private Reply appliedObject(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        String owner = e.object() == null ? ""
                : e.object().path("metadata").path("labels").path(DesiredObjects.OWNER_LABEL).asText("");
        int dot = owner.indexOf('.');
        if (dot < 1 || dot == owner.length() - 1) {
            throw new InvalidEventException(e.ref() + " has no label " + DesiredObjects.OWNER_LABEL + ": <namespace>."
                    + "<DeclaredState name>; the source of these events selects objects with that label, in mode "
                    + "Resource (knative/eventing/sources.yaml, rekon-declared-health)");
        }
        return service.appliedObjectChanged(e.ref(), new DeclaredKey(owner.substring(0, dot), owner.substring(dot + 1),
                false), e.verb() == ApiServerEvent.Verb.DELETE);
    }

    /** The manual reconcile of one DeclaredState, which {@link #declaredReconcile} takes. */
    public static OutgoingEvent reconcileEvent(String namespace, String name) {
        return OutgoingEvent.of(RECONCILE_TYPE, java.util.Map.of(), java.util.Map.of("namespace", namespace,
                "name", name));
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
