package dev.rekon.modules.lifecycle;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.modules.publish.PublishService;
import dev.rekon.pipeline.Replies;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The module lifecycle's functions: ApiServerSource events for Kymas (added, changed, deleted) and the manual
 * {@value #RECONCILE_TYPE} event with {@code {"namespace", "name"}} of a Kyma, each bringing every module of
 * that Kyma in line ({@link KymaModuleService}); a Kyma's change also runs the soak rules of the published
 * modules it lists ({@link PublishService#kymaChanged}). Each answers with a {@code dev.rekon.modules.result} CloudEvent.
 */
public class KymaFunctions {

    public static final String RECONCILE_TYPE = "dev.rekon.modules.reconcile";
    static final String REPLY_TYPE = "dev.rekon.modules.result";
    static final String SOURCE = "rekon/modules";

    @Inject
    KymaModuleService service;

    @Inject
    PublishService publication;

    @Inject
    InstalledKinds kinds;

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = "Kyma"))
    public Reply modulesKyma(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        Optional<String> missing = kinds.notInstalled("a Kyma event", List.of(InstalledKinds.KYMA));
        if (missing.isPresent()) {
            return Reply.rejected(InstalledKinds.REASON, missing.get(), List.of(e.ref()));
        }
        Reply modules = service.kymaChanged(e.namespace(), e.name());
        // How the Kyma's modules run decides the soak of the versions it runs: the promotions follow.
        return publication.kymaChanged(e.namespace(), e.name()).map(p -> Replies.combine(List.of(modules, p)))
                .orElse(modules);
    }

    @Funq
    @CloudEventMapping(trigger = RECONCILE_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply modulesReconcile(CloudEvent<JsonNode> event) {
        JsonNode data = ApiServerEvent.data(event);
        String namespace = data == null ? "" : data.path("namespace").asText("");
        String name = data == null ? "" : data.path("name").asText("");
        if (namespace.isBlank() || name.isBlank()) {
            throw new InvalidEventException(RECONCILE_TYPE + " needs JSON data {\"namespace\": \"<namespace>\","
                    + " \"name\": \"<Kyma name>\"}");
        }
        return service.kymaChanged(namespace, name);
    }
}
