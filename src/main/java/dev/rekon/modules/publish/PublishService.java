package dev.rekon.modules.publish;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.modules.publish.plan.PromoteKey;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.pipeline.ReconcileLoop;

/**
 * Module publication's entry: a component version ({@code <host>/<path>/component-descriptors/<component>} and
 * a tag), from a registry push or the {@value PublishFunctions#PUBLISH_TYPE} event, published when its
 * repository lies under one of {@code rekon.modules.publish.repositories}, through the one {@link ReconcileLoop}
 * with {@link PublishReconciler}.
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
    ReconcileLoop loop;

    public Reply publish(String repository, String version) {
        String repo = PublishSettings.normalise(repository);
        Optional<Reply> off = refusal(repo);
        if (off.isPresent()) {
            return off.get();
        }
        return loop.reconcile(reconciler, new PublishKey(repo, version, settings.namespace()));
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
