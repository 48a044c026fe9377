package dev.rekon.modules;

import java.util.List;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.Reply;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.modules.ModuleInput.Disable;
import dev.rekon.modules.ModuleInput.Enable;
import dev.rekon.modules.ModuleInput.Release;
import dev.rekon.modules.ModuleInput.ReleaseMetaChanged;
import dev.rekon.modules.ModuleInput.TemplateChanged;
import dev.rekon.modules.ModuleInput.Withdrawn;
import dev.rekon.modules.lifecycle.KymaModuleService;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.pipeline.Replies;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The module functions: Funqy adapters that parse ApiServerSource events for Kyma ModuleReleaseMeta and
 * ModuleTemplate objects, and the manual release, hibernate and wake events, into a {@link ModuleInput} for
 * {@link ModuleService}. Kyma's objects are inputs kept in its own namespace, not targets, so no namespace guard
 * applies to them; the Deployments they move are read only in the allowed namespaces. Each answers with a
 * {@value #REPLY_TYPE} CloudEvent.
 */
public class ModuleFunctions {

    public static final String REPLY_TYPE = "dev.rekon.modules.result";
    public static final String WAKE_TYPE = "dev.rekon.modules.wake";
    public static final String HIBERNATE_TYPE = "dev.rekon.modules.hibernate";
    static final String SOURCE = "rekon/modules";

    @Inject
    ModuleService service;

    @Inject
    ModuleTrust trust;

    @Inject
    InstalledKinds kinds;

    @Inject
    KymaModuleService lifecycle;

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = KymaModules.RELEASE_META))
    public Reply modulesReleaseMeta(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        return installed(e, () -> {
            ReleaseMetaView meta = e.object() != null ? ReleaseMetaView.of(e.object())
                    : referenced(e, KymaKind.RELEASE_META);
            return withKymas(e, meta == null ? null : meta.module(), service.handle(
                    e.verb() == ApiServerEvent.Verb.DELETE ? new Withdrawn(e.kind(), e.namespace(), e.name())
                            : new ReleaseMetaChanged(e.namespace(), e.name(), meta)));
        });
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, responseSource = SOURCE,
            attributes = @EventAttribute(name = "kind", value = KymaModules.TEMPLATE))
    public Reply modulesTemplate(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parseNamespaced(event);
        return installed(e, () -> {
            ModuleTemplateView template = e.object() != null ? ModuleTemplateView.of(e.object())
                    : referenced(e, KymaKind.TEMPLATE);
            return withKymas(e, template == null ? null : template.module(), service.handle(
                    e.verb() == ApiServerEvent.Verb.DELETE ? new Withdrawn(e.kind(), e.namespace(), e.name())
                            : new TemplateChanged(e.namespace(), e.name(), template)));
        });
    }

    @Funq
    @CloudEventMapping(trigger = ManualRelease.TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply modulesRelease(CloudEvent<JsonNode> event) {
        return service.handle(new Release(ManualRelease.parse(ApiServerEvent.data(event), trust.verifier())));
    }

    @Funq
    @CloudEventMapping(trigger = WAKE_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply modulesWake(CloudEvent<JsonNode> event) {
        return service.handle(new Enable(moduleOf(ApiServerEvent.data(event), WAKE_TYPE)));
    }

    @Funq
    @CloudEventMapping(trigger = HIBERNATE_TYPE, responseType = REPLY_TYPE, responseSource = SOURCE)
    public Reply modulesHibernate(CloudEvent<JsonNode> event) {
        return service.handle(new Disable(moduleOf(ApiServerEvent.data(event), HIBERNATE_TYPE)));
    }

    /**
     * A release object changed: besides Deployments labelled by hand, every Kyma of its namespace that installed the
     * module moves to what its channel now offers.
     */
    private Reply withKymas(ApiServerEvent e, String moduleOfObject, Reply swapped) {
        if (e.verb() == ApiServerEvent.Verb.DELETE || kinds.notInstalled("Kymas", List.of(InstalledKinds.KYMA))
                .isPresent()) {
            return swapped;
        }
        if (moduleOfObject == null) {
            return swapped;
        }
        String version = e.object() == null ? null : e.object().path("metadata").path("resourceVersion").asText(null);
        Reply kymas = lifecycle.releaseChanged(e.namespace(), moduleOfObject, e.ref(), version);
        // No Kyma lists it, or its namespace is outside rekon.namespaces (nothing read there): the swap answers.
        return "NoKymaListsModule".equals(kymas.reason()) || NamespacePolicy.REASON.equals(kymas.reason()) ? swapped
                : Replies.combine(List.of(swapped, kymas));
    }

    /**
     * The object a Reference-mode event names, read once for both the swap and the Kymas; null for a delete, or when
     * it is gone or cannot be read (the swap reads it again and answers why).
     */
    private <V> V referenced(ApiServerEvent e, KymaKind<V> kind) {
        return e.verb() == ApiServerEvent.Verb.DELETE ? null : service.read(kind, e.namespace(), e.name()).orElse(null);
    }

    /** Without Kyma's CRDs there are no module releases to read: a clear refusal naming the CRDs to install. */
    private Reply installed(ApiServerEvent e, Supplier<Reply> work) {
        return kinds.notInstalled("a " + e.kind() + " event", InstalledKinds.KYMA_KINDS)
                .map(why -> Reply.rejected(InstalledKinds.REASON, why, List.of(e.ref()))).orElseGet(work);
    }

    private static String moduleOf(JsonNode data, String type) {
        String module = data == null ? "" : data.path("module").asText("");
        if (module.isBlank()) {
            throw new InvalidEventException(type + " needs JSON data {\"module\": \"<name>\"}");
        }
        return module;
    }
}
