package dev.rekon.modules.publish.apply;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.plan.ReleaseMetaDraft;
import dev.rekon.modules.publish.plan.TemplateDraft;

/**
 * All Kubernetes I/O of module publication: Kyma's ModuleTemplates and ModuleReleaseMetas, read as views and
 * written server-side. Failures are sorted here: a lost race is a {@link dev.rekon.core.ConflictException}, a
 * refusal a {@link dev.rekon.core.RefusedException} naming the object.
 */
public interface PublishGateway {

    /** Field managers of the channel entries: one per channel, so that applies to different channels never remove each other's entries. */
    String CHANNEL_MANAGER_PREFIX = "rekon-channel-";

    /** The field manager of the promotion annotations of release metas. */
    String PROMOTION_MANAGER = "rekon-promotion";

    Optional<PublishedTemplate> template(String namespace, String name);

    /** The ModuleTemplates labelled as the module's ({@code operator.kyma-project.io/module-name}). */
    List<PublishedTemplate> templates(String namespace, String module);

    /** Every ModuleReleaseMeta of the namespace. */
    List<PublishedMeta> releaseMetas(String namespace);

    /** Every Kyma of the namespace. */
    List<KymaView> kymas(String namespace);

    /** The ModuleReleaseMeta named after the module. */
    Optional<PublishedMeta> releaseMeta(String namespace, String module);

    /**
     * The module's release meta, its templates and the namespace's Kymas as the watches hold them (no API call), for
     * the page's plan of the promotion rules; a gateway without watches answers what it reads.
     */
    default Held held(String namespace, String module) {
        return new Held(releaseMeta(namespace, module), templates(namespace, module), kymas(namespace));
    }

    /** What {@link #held} found. */
    record Held(Optional<PublishedMeta> meta, List<PublishedTemplate> templates, List<KymaView> kymas) {
    }

    /** Server-side apply with field manager {@code rekon}. */
    void applyTemplate(TemplateDraft template);

    /** Server-side apply of the ModuleReleaseMeta's own fields with field manager {@code rekon}. */
    void applyReleaseMeta(ReleaseMetaDraft releaseMeta);

    /**
     * Server-side apply of one {@code spec.channels[]} entry (a list keyed by {@code channel} in Kyma's CRD), with
     * the channel's own field manager ({@value #CHANNEL_MANAGER_PREFIX}{@code <channel>}).
     */
    void applyChannel(ChannelMove move);

    /**
     * Server-side apply of the release meta's promotion annotations, exactly these (any others this manager,
     * {@value #PROMOTION_MANAGER}, set before are removed), guarded by {@code resourceVersion}: a release meta
     * changed since it was read is a {@link dev.rekon.core.ConflictException}.
     */
    void applyPromotionStatus(ObjectRef releaseMeta, String resourceVersion, Map<String, String> annotations);
}
