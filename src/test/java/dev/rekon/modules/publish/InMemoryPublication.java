package dev.rekon.modules.publish;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ConflictException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.publish.apply.PublishBodies;
import dev.rekon.modules.publish.apply.PublishGateway;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.plan.ReleaseMetaDraft;
import dev.rekon.modules.publish.plan.SoakPlanner;
import dev.rekon.modules.publish.plan.TemplateDraft;
import dev.rekon.modules.publish.source.ComponentRead;
import dev.rekon.modules.publish.source.ComponentSource;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Rekon's own publication gateways in memory, for service tables: a registry of component versions (repository,
 * tag, digest), the ModuleTemplates and ModuleReleaseMetas written (each release meta's channels, annotations and
 * a resourceVersion that every write bumps and the promotion annotations are guarded by) and the Kymas set by the
 * test, counting every write and every read of a component version.
 */
final class InMemoryPublication implements ComponentSource, PublishGateway {

    static final String NS = "kcp-system";

    /** repository → tag → manifest digest; a component version's content is its planner-table fixture. */
    final Map<String, Map<String, String>> registry = new LinkedHashMap<>();
    final Map<String, PublishedTemplate> templates = new LinkedHashMap<>();
    final Map<String, Map<String, String>> channels = new LinkedHashMap<>();
    final Map<String, String> components = new LinkedHashMap<>();
    final Map<String, Map<String, String>> annotations = new LinkedHashMap<>();
    final Map<String, Integer> resourceVersions = new LinkedHashMap<>();
    final List<KymaView> kymas = new ArrayList<>();
    final List<String> writes = new CopyOnWriteArrayList<>();
    final List<String> reads = new CopyOnWriteArrayList<>();
    String catalogRefusal;
    boolean tagsUnavailable;

    void push(String repository, String tag, String digest) {
        registry.computeIfAbsent(repository, r -> new LinkedHashMap<>()).put(tag, digest);
    }

    /** The module's channels, to set or read (a release meta exists once it has one or its component). */
    Map<String, String> channels(String module) {
        return channels.computeIfAbsent(module, m -> new LinkedHashMap<>());
    }

    Map<String, String> annotations(String module) {
        return annotations.computeIfAbsent(module, m -> new LinkedHashMap<>());
    }

    void template(PublishedTemplate template) {
        templates.put(template.view().name(), template);
    }

    /** A Kyma of {@link #NS} following kpack on {@code channel}, running {@code version} (none: null) in {@code state}. */
    void kyma(String name, String channel, String version, String state) {
        kymas.removeIf(k -> k.name().equals(name));
        ObjectNode k = TestSigning.JSON.createObjectNode();
        k.putObject("metadata").put("name", name).put("namespace", NS);
        k.putObject("spec").put("channel", channel).putArray("modules").addObject().put("name", "kpack");
        if (version != null) {
            k.putObject("status").putArray("modules").addObject().put("name", "kpack").put("version", version)
                    .put("state", state);
        }
        kymas.add(KymaView.of(k));
    }

    private void written(String module) {
        resourceVersions.merge(module, 2, (old, one) -> old + 1);
    }

    @Override
    public ComponentRead read(String repository, String version, String pushed, String namespace) {
        reads.add("read " + version + (pushed == null ? "" : "@" + pushed));
        Map<String, String> tags = registry.getOrDefault(repository, Map.of());
        String digest = pushed == null ? tags.get(version) : tags.containsValue(pushed) ? pushed : null;
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
        return Optional.ofNullable(templates.get(name));
    }

    @Override
    public Optional<PublishedMeta> releaseMeta(String namespace, String module) {
        if (!components.containsKey(module) && !channels.containsKey(module)) {
            return Optional.empty();
        }
        return Optional.of(new PublishedMeta(new ReleaseMetaView(namespace, module,
                String.valueOf(resourceVersions.getOrDefault(module, 1)), module, Map.copyOf(channels.getOrDefault(module,
                        Map.of()))), components.get(module), annotations.getOrDefault(module, Map.of())));
    }

    @Override
    public void applyTemplate(TemplateDraft draft) {
        ObjectNode template = PublishBodies.template(draft);
        String name = template.path("metadata").path("name").asText();
        writes.add("template " + name);
        templates.put(name, new PublishedTemplate(KymaKind.TEMPLATE.view().apply(template), template.path("metadata")
                .path("annotations").path(PublishedTemplate.DIGEST_ANNOTATION).asText(null)));
    }

    @Override
    public void applyReleaseMeta(ReleaseMetaDraft releaseMeta) {
        String module = releaseMeta.module();
        writes.add("release meta " + module);
        components.put(module, releaseMeta.component());
        written(module);
    }

    @Override
    public void applyChannel(ChannelMove move) {
        writes.add("channel " + move.channel() + " " + move.to());
        if (move.component() != null) {
            components.put(move.module(), move.component());
        }
        channels(move.module()).put(move.channel(), move.to());
        if (move.note() != null) {
            annotations(move.module()).put(PublishPlan.NOTE_ANNOTATION_PREFIX + move.channel(), move.note());
        }
        written(move.module());
    }

    @Override
    public void applyPromotionStatus(ObjectRef releaseMeta, String resourceVersion, Map<String, String> desired) {
        String module = releaseMeta.name();
        if (!String.valueOf(resourceVersions.getOrDefault(module, 1)).equals(resourceVersion)) {
            throw new ConflictException(releaseMeta, "the release meta changed since " + resourceVersion, null);
        }
        writes.add("promotion status " + module);
        annotations(module).keySet().removeIf(k -> k.startsWith(SoakPlanner.SOAK_PREFIX)
                || k.startsWith(SoakPlanner.STATUS_PREFIX));
        annotations(module).putAll(desired);
        written(module);
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
        return List.copyOf(kymas);
    }
}
