package dev.rekon.modules.publish;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.publish.apply.PublishGateway;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.source.ComponentRead;
import dev.rekon.modules.publish.source.ComponentSource;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Rekon's own publication gateways in memory, for service tables: a registry of component versions (repository,
 * tag, digest) and the ModuleTemplates and ModuleReleaseMetas written, counting every write and every read of a
 * component version.
 */
final class InMemoryPublication implements ComponentSource, PublishGateway {

    /** repository → tag → manifest digest; a component version's content is its planner-table fixture. */
    final Map<String, Map<String, String>> registry = new LinkedHashMap<>();
    final Map<String, ObjectNode> templates = new LinkedHashMap<>();
    final Map<String, Map<String, String>> channels = new LinkedHashMap<>();
    final Map<String, String> components = new LinkedHashMap<>();
    final List<String> writes = new CopyOnWriteArrayList<>();
    final List<String> reads = new CopyOnWriteArrayList<>();
    String catalogRefusal;
    boolean tagsUnavailable;

    void push(String repository, String tag, String digest) {
        registry.computeIfAbsent(repository, r -> new LinkedHashMap<>()).put(tag, digest);
    }

    @Override
    public ComponentRead read(String repository, String version, String namespace) {
        reads.add("read " + version);
        String digest = registry.getOrDefault(repository, Map.of()).get(version);
        if (digest == null) {
            return new ComponentRead.Refused("ComponentNotFound", repository + ":" + version + " not found");
        }
        return new ComponentRead.Found(PublicationPlannerTest.version(version, digest,
                SignatureCheck.verified("ok"), true));
    }

    @Override
    public Optional<String> digest(String repository, String version, String namespace) {
        reads.add("digest " + version);
        return Optional.ofNullable(registry.getOrDefault(repository, Map.of()).get(version));
    }

    @Override
    public Listed repositories(String prefix, String namespace) {
        if (catalogRefusal != null) {
            return Listed.refused(catalogRefusal);
        }
        return new Listed(registry.keySet().stream().filter(r -> r.startsWith(prefix + "/")).toList(), null);
    }

    @Override
    public Listed tags(String repository, String namespace) {
        if (tagsUnavailable) {
            throw new TransientFailureException("registry answered HTTP 503", null);
        }
        return new Listed(new ArrayList<>(registry.getOrDefault(repository, Map.of()).keySet()), null);
    }

    @Override
    public Optional<PublishedTemplate> template(String namespace, String name) {
        return Optional.ofNullable(templates.get(name)).map(t -> new PublishedTemplate(KymaKind.TEMPLATE.view()
                .apply(t), t.path("metadata").path("annotations").path(PublishedTemplate.DIGEST_ANNOTATION)
                .asText(null)));
    }

    @Override
    public Optional<PublishedMeta> releaseMeta(String namespace, String module) {
        if (!components.containsKey(module) && !channels.containsKey(module)) {
            return Optional.empty();
        }
        return Optional.of(new PublishedMeta(new ReleaseMetaView(namespace, module, "1", module,
                channels.getOrDefault(module, Map.of())), components.get(module)));
    }

    @Override
    public void applyTemplate(ObjectNode template) {
        String name = template.path("metadata").path("name").asText();
        writes.add("template " + name);
        templates.put(name, template.deepCopy());
    }

    @Override
    public void applyReleaseMeta(ObjectNode releaseMeta) {
        String module = releaseMeta.path("metadata").path("name").asText();
        writes.add("release meta " + module);
        components.put(module, releaseMeta.path("spec").path("ocmComponentName").asText());
    }

    @Override
    public void applyChannel(ChannelMove move) {
        writes.add("channel " + move.channel() + " " + move.to());
        if (move.component() != null) {
            components.put(move.module(), move.component());
        }
        channels.computeIfAbsent(move.module(), m -> new LinkedHashMap<>()).put(move.channel(), move.to());
    }

    @Override
    public void applyPromotionStatus(ObjectRef releaseMeta, String resourceVersion, Map<String, String> annotations) {
        writes.add("promotion status " + releaseMeta.name());
    }

    @Override
    public List<PublishedTemplate> templates(String namespace, String module) {
        return templates.keySet().stream().filter(n -> n.startsWith(module + "-"))
                .map(n -> template(namespace, n).orElseThrow()).toList();
    }

    @Override
    public List<PublishedMeta> releaseMetas(String namespace) {
        java.util.Set<String> modules = new java.util.TreeSet<>(components.keySet());
        modules.addAll(channels.keySet());
        return modules.stream().map(m -> releaseMeta(namespace, m).orElseThrow()).toList();
    }

    @Override
    public List<KymaView> kymas(String namespace) {
        return List.of();
    }
}
