package dev.rekon.modules.publish;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ConflictException;
import dev.rekon.core.ObjectRef;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.publish.apply.PublishGateway;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.plan.SoakPlanner;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.modules.ocm.TestSigning;

/**
 * Publication's Kubernetes objects in memory, one release meta ({@code kpack} in {@code kcp-system}): channel
 * applies, guarded promotion annotations that bump its resourceVersion, templates and Kymas as set by the test.
 */
final class InMemoryPublications implements PublishGateway {

    static final String NS = "kcp-system";
    final Map<String, String> channels = new LinkedHashMap<>();
    final Map<String, String> annotations = new LinkedHashMap<>();
    final List<PublishedTemplate> templates = new ArrayList<>();
    final List<KymaView> kymas = new ArrayList<>();
    int resourceVersion = 1;
    int writes;

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

    @Override
    public Optional<PublishedTemplate> template(String namespace, String name) {
        return templates.stream().filter(t -> t.view().name().equals(name)).findFirst();
    }

    @Override
    public List<PublishedTemplate> templates(String namespace, String module) {
        return List.copyOf(templates);
    }

    @Override
    public Optional<PublishedMeta> releaseMeta(String namespace, String module) {
        return "kpack".equals(module) ? Optional.of(new PublishedMeta(new ReleaseMetaView(NS, "kpack",
                String.valueOf(resourceVersion), "kpack", channels), PublicationPlannerTest.COMPONENT, annotations))
                : Optional.empty();
    }

    @Override
    public List<PublishedMeta> releaseMetas(String namespace) {
        return releaseMeta(namespace, "kpack").stream().toList();
    }

    @Override
    public List<KymaView> kymas(String namespace) {
        return List.copyOf(kymas);
    }

    @Override
    public void applyTemplate(ObjectNode template) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void applyReleaseMeta(ObjectNode releaseMeta) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void applyChannel(ChannelMove move) {
        channels.put(move.channel(), move.to());
        if (move.note() != null) {
            annotations.put(PublishPlan.NOTE_ANNOTATION_PREFIX + move.channel(), move.note());
        }
        resourceVersion++;
        writes++;
    }

    @Override
    public void applyPromotionStatus(ObjectRef releaseMeta, String rv, Map<String, String> desired) {
        if (!String.valueOf(resourceVersion).equals(rv)) {
            throw new ConflictException(releaseMeta, "the release meta changed since " + rv, null);
        }
        annotations.keySet().removeIf(k -> k.startsWith(SoakPlanner.SOAK_PREFIX) || k.startsWith(SoakPlanner.STATUS_PREFIX));
        annotations.putAll(desired);
        resourceVersion++;
        writes++;
    }
}
