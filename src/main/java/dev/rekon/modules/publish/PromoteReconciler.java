package dev.rekon.modules.publish;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.publish.apply.PublishGateway;
import dev.rekon.modules.publish.plan.PromoteKey;
import dev.rekon.modules.publish.plan.PromoteViews;
import dev.rekon.modules.publish.plan.PromotionPlanner;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.pipeline.Reconciler;

/**
 * A promotion by hand on the one reconcile loop: reads the version's ModuleTemplate (its descriptor verified
 * again) and the module's ModuleReleaseMeta, plans with {@link PromotionPlanner} (the maintenance window checked
 * against the injected clock), applies the channel entry with the channel's own field manager, its annotation
 * saying how the channel came to the version.
 */
@ApplicationScoped
public class PromoteReconciler implements Reconciler<PromoteKey, PromoteViews, PublishPlan> {

    @Inject
    PublishGateway gateway;

    @Inject
    TemplateSignatures signatures;

    @Inject
    PublishSettings settings;

    @Inject
    Clock clock;

    @Inject
    EventRecorder events;

    @Override
    public ObjectRef subject(PromoteKey key) {
        return key.releaseMetaRef();
    }

    @Override
    public Optional<PromoteViews> load(PromoteKey key, boolean fresh) {
        PublishedTemplate template = gateway.template(key.namespace(), key.templateName()).orElse(null);
        return Optional.of(new PromoteViews(key, signatures.required(), template, signatures.check(template),
                gateway.releaseMeta(key.namespace(), key.module()).orElse(null), settings.maintenanceWindow(),
                clock.instant()));
    }

    @Override
    public Reply gone(PromoteKey key) {
        return Reply.unchanged("ModuleNotPublished", "module " + key.module() + " is gone", List.of());
    }

    @Override
    public PublishPlan plan(PromoteViews views) {
        return PromotionPlanner.plan(views);
    }

    @Override
    public void apply(PublishPlan plan) {
        plan.moves().forEach(gateway::applyChannel);
        plan.events().forEach(e -> events.normal(e.about(), e.reason(), e.message()));
    }

    @Override
    public Map<String, String> facts(PromoteKey key) {
        return Map.of("module", key.module(), "channel", key.channel(), "toVersion", key.version());
    }
}
