package dev.rekon.modules.publish.apply;

import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;

/**
 * All Kubernetes I/O of module publication: Kyma's ModuleTemplates and ModuleReleaseMetas, read as views and
 * written server-side. Failures are sorted here: a lost race is a {@link dev.rekon.core.ConflictException}, a
 * refusal a {@link dev.rekon.core.RefusedException} naming the object.
 */
public interface PublishGateway {

    /** Field managers of the channel entries: one per channel, so that applies to different channels never remove each other's entries. */
    String CHANNEL_MANAGER_PREFIX = "rekon-channel-";

    Optional<PublishedTemplate> template(String namespace, String name);

    /** The ModuleReleaseMeta named after the module. */
    Optional<PublishedMeta> releaseMeta(String namespace, String module);

    /** Server-side apply with field manager {@code rekon}. */
    void applyTemplate(ObjectNode template);

    /** Server-side apply of the ModuleReleaseMeta's own fields with field manager {@code rekon}. */
    void applyReleaseMeta(ObjectNode releaseMeta);

    /**
     * Server-side apply of one {@code spec.channels[]} entry (a list keyed by {@code channel} in Kyma's CRD), with
     * the channel's own field manager ({@value #CHANNEL_MANAGER_PREFIX}{@code <channel>}).
     */
    void applyChannel(ChannelMove move);
}
