package dev.rekon.modules.publish;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.publish.apply.PublishGateway;
import dev.rekon.modules.publish.plan.PublicationPlanner;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.plan.PublishViews;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.source.ComponentRead;
import dev.rekon.modules.publish.source.ComponentSource;
import dev.rekon.pipeline.LoadReads;
import dev.rekon.pipeline.Reconciler;

/**
 * Module publication as the one reconcile loop runs it, for one component version: reads its ModuleTemplate and
 * the module's ModuleReleaseMeta, then the component version (only its tag's digest when that is what the template
 * records and nothing would be written; nothing, when the key alone is refused; a pushed version at once, beside
 * the two), plans with
 * {@link PublicationPlanner}, then writes the template, the release meta's own fields and each channel moved,
 * and tells of them in Events.
 */
@ApplicationScoped
public class PublishReconciler implements Reconciler<PublishKey, PublishViews, PublishPlan> {

    private static final Executor READS = LoadReads.EXECUTOR;

    @Inject
    ComponentSource components;

    @Inject
    PublishGateway gateway;

    @Inject
    PublishSettings settings;

    @Inject
    ModuleTrust trust;

    @Inject
    EventRecorder events;

    @Override
    public ObjectRef subject(PublishKey key) {
        return key.module() == null ? null : key.templateRef();
    }

    /**
     * Every version of a module moves the channels of its one ModuleReleaseMeta, forward only: one version of a
     * module at a time, so that a pass's versions never race each other's channel moves.
     */
    @Override
    public Object identity(PublishKey key) {
        return key.module() == null ? key : key.releaseMetaRef();
    }

    @Override
    public String namespace(PublishKey key) {
        return key.namespace();
    }

    @Override
    public Optional<PublishViews> load(PublishKey key, boolean fresh) {
        PublishViews.Policy policy = new PublishViews.Policy(settings.autoChannels(),
                trust.policy().requireSignature());
        if (key.refusal().isPresent()) {
            return Optional.of(new PublishViews(key, policy, null, null, null));
        }
        // The release meta is read while the template is; a pushed version (most likely new) is read from the
        // registry beside them too, instead of after the template's read says it is missing.
        CompletableFuture<Optional<PublishedMeta>> metaRead = CompletableFuture.supplyAsync(
                () -> gateway.releaseMeta(key.namespace(), key.module()), READS);
        CompletableFuture<ComponentRead> pushedRead = key.pushed() ? CompletableFuture.supplyAsync(
                () -> components.read(key.repository(), key.version(), key.digest(), key.namespace()), READS) : null;
        PublishedTemplate template = gateway.template(key.namespace(), key.templateName()).orElse(null);
        ComponentRead read = pushedRead != null ? join(pushedRead)
                : template == null ? components.read(key.repository(), key.version(), key.namespace()) : null;
        PublishedMeta meta = join(metaRead).orElse(null);
        if (read == null) {
            Optional<String> settled = PublicationPlanner.settled(key, policy, template, meta);
            read = settled.isPresent()
                    && settled.equals(components.digest(key.repository(), key.version(), key.namespace()))
                            ? new ComponentRead.Unchanged(settled.get())
                            : components.read(key.repository(), key.version(), key.namespace());
        }
        return Optional.of(new PublishViews(key, policy, read, template, meta));
    }

    private static <T> T join(CompletableFuture<T> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    @Override
    public Reply gone(PublishKey key) {
        return Reply.unchanged("ComponentNotFound", "component version " + key + " is gone", java.util.List.of());
    }

    @Override
    public PublishPlan plan(PublishViews views) {
        return PublicationPlanner.plan(views);
    }

    @Override
    public void apply(PublishPlan plan) {
        if (plan.template() != null) {
            gateway.applyTemplate(plan.template());
        }
        if (plan.releaseMeta() != null) {
            gateway.applyReleaseMeta(plan.releaseMeta());
        }
        plan.moves().forEach(gateway::applyChannel);
        plan.events().forEach(e -> events.normal(e.about(), e.reason(), e.message()));
    }

    @Override
    public Map<String, String> facts(PublishKey key) {
        return key.module() == null ? Map.of() : Map.of("module", key.module(), "version", key.version());
    }
}
