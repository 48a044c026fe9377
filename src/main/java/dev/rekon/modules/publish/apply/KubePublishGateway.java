package dev.rekon.modules.publish.apply;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.FieldManager;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.Versioned;
import dev.rekon.cluster.watch.FacetViews;
import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.core.ObjectRef;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.watch.KymaFacet;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.plan.ReleaseMetaDraft;
import dev.rekon.modules.publish.plan.TemplateDraft;
import dev.rekon.modules.publish.watch.PublishFacets;
import dev.rekon.modules.release.KymaModules;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The {@link PublishGateway} on the Kubernetes API: reads straight from the apiserver (a publication is rare and
 * must see the template another replica just wrote), writes by server-side apply.
 */
@ApplicationScoped
public class KubePublishGateway implements PublishGateway {

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper json;

    @Inject
    SharedWatches watches;

    @Inject
    PublishFacets.Metas metas;

    @Inject
    PublishFacets.Templates templates;

    @Inject
    KymaFacet kymas;

    @Override
    public Held held(String namespace, String module) {
        Optional<PublishedMeta> meta = cached(watches.of(metas), namespace).stream()
                .filter(m -> module.equals(m.view().name())).findFirst();
        List<PublishedTemplate> ts = cached(watches.of(templates), namespace).stream()
                .filter(t -> module.equals(t.view().module())).toList();
        return new Held(meta, ts, cached(watches.of(kymas), namespace));
    }

    private static <V> List<V> cached(FacetViews<V> views, String namespace) {
        return views.cached(namespace, null).map(l -> l.stream().map(Versioned::view).toList()).orElse(List.of());
    }

    @Override
    public Optional<PublishedTemplate> template(String namespace, String name) {
        return read(KymaModules.TEMPLATE, namespace, name).map(PublishFacets::template);
    }

    @Override
    public List<PublishedTemplate> templates(String namespace, String module) {
        return list(KymaModules.TEMPLATE, namespace, Map.of(KymaModules.MODULE_NAME_LABEL, module)).stream()
                .map(PublishFacets::template).toList();
    }

    @Override
    public Optional<PublishedMeta> releaseMeta(String namespace, String module) {
        return read(KymaModules.RELEASE_META, namespace, module).map(PublishFacets::meta);
    }

    @Override
    public List<PublishedMeta> releaseMetas(String namespace) {
        return list(KymaModules.RELEASE_META, namespace, Map.of()).stream().map(PublishFacets::meta).toList();
    }

    @Override
    public List<KymaView> kymas(String namespace) {
        return list("Kyma", namespace, Map.of()).stream().map(KymaView::of).toList();
    }


    private List<JsonNode> list(String kind, String namespace, Map<String, String> labels) {
        return KubeErrors.call("list " + kind + " in " + namespace, () -> client.genericKubernetesResources(
                KymaModules.API_VERSION, kind).inNamespace(namespace).withLabels(labels).list().getItems()).stream()
                .map(o -> (JsonNode) json.valueToTree(o)).toList();
    }

    private Optional<JsonNode> read(String kind, String namespace, String name) {
        ObjectRef ref = new ObjectRef(KymaModules.API_VERSION, kind, namespace, name);
        return Optional.ofNullable(KubeErrors.call(ref, "read " + ref, () -> client.genericKubernetesResources(
                KymaModules.API_VERSION, kind).inNamespace(namespace).withName(name).get()))
                .map(o -> (JsonNode) json.valueToTree(o));
    }

    @Override
    public void applyTemplate(TemplateDraft template) {
        apply(PublishBodies.template(template), FieldManager.NAME);
    }

    @Override
    public void applyReleaseMeta(ReleaseMetaDraft releaseMeta) {
        apply(PublishBodies.releaseMeta(releaseMeta), FieldManager.NAME);
    }

    @Override
    public void applyChannel(ChannelMove move) {
        ObjectNode m = json.createObjectNode();
        m.put("apiVersion", KymaModules.API_VERSION).put("kind", KymaModules.RELEASE_META);
        ObjectNode meta = m.putObject("metadata").put("name", move.module()).put("namespace", move.namespace());
        if (move.note() != null) {
            meta.putObject("annotations").put(PublishPlan.NOTE_ANNOTATION_PREFIX + move.channel(), move.note());
        }
        ObjectNode spec = m.putObject("spec").put("moduleName", move.module());
        if (move.component() != null) {
            spec.put("ocmComponentName", move.component());
        }
        spec.putArray("channels").addObject().put("channel", move.channel()).put("version", move.to());
        apply(m, CHANNEL_MANAGER_PREFIX + move.channel());
    }

    @Override
    public void applyPromotionStatus(ObjectRef releaseMeta, String resourceVersion, Map<String, String> annotations) {
        ObjectNode m = json.createObjectNode();
        m.put("apiVersion", KymaModules.API_VERSION).put("kind", KymaModules.RELEASE_META);
        ObjectNode meta = m.putObject("metadata").put("name", releaseMeta.name())
                .put("namespace", releaseMeta.namespace()).put("resourceVersion", resourceVersion);
        ObjectNode a = meta.putObject("annotations");
        annotations.forEach(a::put);
        apply(m, PROMOTION_MANAGER);
    }

    private void apply(ObjectNode object, String manager) {
        GenericKubernetesResource r = json.convertValue(object, GenericKubernetesResource.class);
        ObjectRef ref = new ObjectRef(r.getApiVersion(), r.getKind(), r.getMetadata().getNamespace(),
                r.getMetadata().getName());
        KubeErrors.call(ref, "apply " + ref, () -> client.resource(r).fieldManager(manager).forceConflicts()
                .serverSideApply());
    }
}
