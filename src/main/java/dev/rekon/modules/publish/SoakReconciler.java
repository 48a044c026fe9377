package dev.rekon.modules.publish;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.intent.ModuleStatus;
import dev.rekon.modules.publish.apply.PublishGateway;
import dev.rekon.modules.publish.plan.KymaFollower;
import dev.rekon.modules.publish.plan.PromotionPlan;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.plan.SoakKey;
import dev.rekon.modules.publish.plan.SoakPlanner;
import dev.rekon.modules.publish.plan.SoakViews;
import dev.rekon.pipeline.Reconciler;

/**
 * The promotions of one published module on the one reconcile loop: reads its ModuleReleaseMeta, its
 * ModuleTemplates (each descriptor verified again), and the Kymas of the namespace that list it, plans with
 * {@link SoakPlanner} at the injected clock's time, then writes the promotion annotations (guarded) and each
 * channel moved, and tells of what changed in Events on the release meta. The page and {@code GET /modules} plan
 * the same rules in report mode from the watches ({@link #held}).
 */
@ApplicationScoped
public class SoakReconciler implements Reconciler<SoakKey, SoakViews, PromotionPlan> {

    @Inject
    PublishGateway gateway;

    @Inject
    PublishSettings settings;

    @Inject
    TemplateSignatures signatures;

    @Inject
    Clock clock;

    @Inject
    EventRecorder events;

    @Override
    public ObjectRef subject(SoakKey key) {
        return key.releaseMetaRef();
    }

    @Override
    public Optional<SoakViews> load(SoakKey key, boolean fresh) {
        Optional<PublishedMeta> meta = gateway.releaseMeta(key.namespace(), key.module());
        return meta.isEmpty() ? Optional.empty()
                : Optional.of(views(key, meta.get(), gateway.templates(key.namespace(), key.module()),
                        gateway.kymas(key.namespace())));
    }

    /** The views as the watches hold them (no API call), for the page and {@code GET /modules}. */
    Optional<SoakViews> held(SoakKey key) {
        PublishGateway.Held held = gateway.held(key.namespace(), key.module());
        return held.meta().map(m -> views(key, m, held.templates(), held.kymas()));
    }

    private SoakViews views(SoakKey key, PublishedMeta meta, List<PublishedTemplate> templates, List<KymaView> all) {
        SoakViews.Policy policy = new SoakViews.Policy(settings.promotions(), signatures.required(),
                settings.maintenanceWindow());
        List<SoakViews.Version> versions = templates.stream().filter(t -> t.componentDigest() != null)
                .map(t -> new SoakViews.Version(t, signatures.check(t))).toList();
        List<KymaFollower> kymas = new ArrayList<>();
        for (KymaView k : all) {
            follower(k, key.module()).ifPresent(kymas::add);
        }
        return new SoakViews(key.namespace(), key.module(), policy, meta, versions, kymas, clock.instant());
    }

    /** The Kyma as a follower of the module: listed and managed, not being deleted. */
    static Optional<KymaFollower> follower(KymaView k, String module) {
        if (k.deleting()) {
            return Optional.empty();
        }
        return k.declared(module).filter(m -> m.managed()).map(m -> {
            ModuleStatus s = k.statusOf(module);
            return s == null ? new KymaFollower(k.namespace(), k.name(), m.channel(), null, null, null)
                    : new KymaFollower(k.namespace(), k.name(), m.channel(), text(s.version()),
                            s.state() == null ? null : s.state().name(), text(s.message()));
        });
    }

    private static String text(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    @Override
    public Reply gone(SoakKey key) {
        return Reply.unchanged("ModuleNotPublished", "module " + key.module() + " has no ModuleReleaseMeta in "
                + key.namespace(), List.of());
    }

    @Override
    public PromotionPlan plan(SoakViews views) {
        return SoakPlanner.plan(views);
    }

    @Override
    public void apply(PromotionPlan plan) {
        if (plan.annotations() != null) {
            gateway.applyPromotionStatus(plan.releaseMeta(), plan.resourceVersion(), plan.annotations());
        }
        plan.moves().forEach(gateway::applyChannel);
        for (PromotionPlan.Notice n : plan.events()) {
            if (n.warning()) {
                events.warning(plan.releaseMeta(), n.reason(), n.message());
            } else {
                events.normal(plan.releaseMeta(), n.reason(), n.message());
            }
        }
    }

    @Override
    public Map<String, String> facts(SoakKey key) {
        return Map.of("module", key.module());
    }
}
