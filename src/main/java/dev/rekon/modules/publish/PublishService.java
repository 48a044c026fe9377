package dev.rekon.modules.publish;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.modules.publish.apply.PublishGateway;
import dev.rekon.modules.publish.plan.PromoteKey;
import dev.rekon.modules.publish.plan.PromotionPlan;
import dev.rekon.modules.publish.plan.SoakKey;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.ReportOnly;

/**
 * Module publication's entry: a component version ({@code <host>/<path>/component-descriptors/<component>} and
 * a tag), from a registry push or the {@value PublishFunctions#PUBLISH_TYPE} event, published when its
 * repository lies under one of {@code rekon.modules.publish.repositories}, through the one {@link ReconcileLoop}
 * with {@link PublishReconciler}; and the channel moves after it, by hand ({@link PromoteReconciler}) or by the
 * soak rules ({@link SoakReconciler}), per module, when a Kyma of the publication namespace changes and in the
 * resync pass.
 */
@ApplicationScoped
public class PublishService {

    public static final String OFF = "PublicationOff";
    public static final String NOT_PUBLISHED = "RepositoryNotPublished";

    @Inject
    PublishSettings settings;

    @Inject
    PublishReconciler reconciler;

    @Inject
    PromoteReconciler promotions;

    @Inject
    SoakReconciler soaks;

    @Inject
    PublishGateway gateway;

    @Inject
    ReconcileLoop loop;

    /** A pushed component version (the publish event): see {@link PublishKey#pushed()}. */
    public Reply publish(String repository, String version) {
        return publish(repository, version, null);
    }

    /** A pushed component version, read by the manifest digest a registry's notification names, when it names one. */
    public Reply publish(String repository, String version, String digest) {
        String repo = PublishSettings.normalise(repository);
        Optional<Reply> off = refusal(repo);
        if (off.isPresent()) {
            return off.get();
        }
        return loop.reconcile(reconciler, new PublishKey(repo, version, settings.namespace(), true, digest));
    }

    /** The reply publishing would give now, writing nothing (a resync in report mode). */
    public Reply report(String repository, String version) {
        String repo = PublishSettings.normalise(repository);
        return refusal(repo).orElseGet(() -> loop.report(reconciler, new PublishKey(repo, version,
                settings.namespace())));
    }

    /** Moves a channel of a published module to one of its published versions, by hand. */
    public Reply promote(String module, String channel, String version) {
        if (!settings.enabled()) {
            return Reply.rejected(OFF, "module publication is off: set rekon.modules.publish.repositories to the"
                    + " repository prefixes to publish from", List.of());
        }
        return loop.reconcile(promotions, new PromoteKey(settings.namespace(), module, channel, version));
    }

    /** The soak rules of one published module, applied (or, in report mode, only answered). */
    public Reply promotions(String module, boolean report) {
        SoakKey key = new SoakKey(settings.namespace(), module);
        return report ? loop.report(soaks, key) : loop.reconcile(soaks, key);
    }

    /**
     * The same in report mode: what the rules would do now, and where each stands, planned from the watches
     * ({@link SoakReconciler#held}, {@link ReportOnly}); nothing read from the apiserver, nothing written.
     */
    public Optional<PromotionPlan> promotionReport(String module) {
        return loop.plan(new ReportOnly<>(soaks, soaks::held), new SoakKey(settings.namespace(), module));
    }

    /**
     * A Kyma changed (its status says how its modules run): the soak rules of each published module it lists, when
     * it lives in the publication namespace and rules are set; empty otherwise, so other Kymas' answers stay theirs.
     */
    public Optional<Reply> kymaChanged(String namespace, String kyma) {
        if (!settings.enabled() || settings.promotions().isEmpty() || !settings.namespace().equals(namespace)
                || loop.refusal(namespace, null).isPresent()) {
            return Optional.empty();
        }
        List<String> published = published();
        List<String> modules = gateway.kymas(namespace).stream().filter(k -> k.name().equals(kyma))
                .flatMap(k -> k.modules().stream()).map(m -> m.name()).distinct().filter(published::contains).toList();
        if (modules.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(loop.reconcileAll(soaks, modules.stream().map(m -> new SoakKey(namespace, m)).toList(),
                Reply.unchanged("NoPublishedModule", "", List.of())));
    }

    /** The modules published in the publication namespace: the release metas naming an OCM component. */
    public List<String> published() {
        if (!settings.enabled()) {
            return List.of();
        }
        return gateway.releaseMetas(settings.namespace()).stream().filter(m -> m.ocmComponentName() != null)
                .map(m -> m.view().name()).sorted().toList();
    }

    public boolean enabled() {
        return settings.enabled();
    }

    public String namespace() {
        return settings.namespace();
    }

    /** Whether a repository is published from: publication on, and the repository under a configured prefix. */
    public boolean publishes(String repository) {
        return refusal(PublishSettings.normalise(repository)).isEmpty();
    }

    private Optional<Reply> refusal(String repository) {
        List<String> prefixes = settings.repositories();
        if (prefixes.isEmpty()) {
            return Optional.of(Reply.rejected(OFF, "module publication is off: set rekon.modules.publish.repositories"
                    + " to the repository prefixes to publish from", List.of()));
        }
        if (prefixes.stream().noneMatch(p -> repository.equals(p) || repository.startsWith(p + "/"))) {
            return Optional.of(Reply.rejected(NOT_PUBLISHED, repository + " lies under none of the repositories"
                    + " published from (rekon.modules.publish.repositories: " + prefixes + ")", List.of()));
        }
        return Optional.empty();
    }
}
