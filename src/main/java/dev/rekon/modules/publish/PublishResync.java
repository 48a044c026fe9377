package dev.rekon.modules.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.modules.publish.source.ComponentSource;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * Module publication's part of a resync pass, for registries that send no webhooks: every component version
 * tagged in the component-descriptor repositories under {@code rekon.modules.publish.repositories} is a key of
 * the same {@link PublishReconciler} as a push, on the one loop ({@link AreaPass}), counted by its reply. Tags
 * that are not module versions ({@code latest}) are left out. A version already published with the same digest
 * costs two reads of the apiserver and one HEAD of its manifest, and writes nothing. Skipped while publication is
 * off or the cluster does not serve Kyma's kinds.
 */
@ApplicationScoped
public class PublishResync implements AreaResync {

    public static final String AREA = "publish";

    @Inject
    PublishSettings settings;

    @Inject
    ReconcileLoop loop;

    @Inject
    PublishReconciler reconciler;

    @Inject
    ComponentSource components;

    @Inject
    InstalledKinds kinds;

    @Override
    public String area() {
        return AREA;
    }

    /**
     * An area of publication skipped, saying why: publication is off, or a kind it needs is not served; empty when
     * it can run.
     */
    static Optional<AreaResult> unavailable(boolean enabled, InstalledKinds kinds, String area, String what,
            java.util.List<InstalledKinds.Kind> needed) {
        if (!enabled) {
            return Optional.of(AreaResult.skipped(area, "module publication is off (rekon.modules.publish.repositories"
                    + " is empty)"));
        }
        return kinds.notInstalled(what, needed).map(missing -> AreaResult.skipped(area, missing));
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        Optional<AreaResult> unavailable = unavailable(settings.enabled(), kinds, AREA, "module publication",
                InstalledKinds.KYMA_KINDS);
        if (unavailable.isPresent()) {
            return unavailable.get();
        }
        AreaTally tally = new AreaTally(AREA);
        if (!scope.covers(settings.namespace())) {
            return tally.result();
        }
        List<PublishKey> keys = new ArrayList<>();
        for (String prefix : settings.repositories()) {
            for (String repository : listed(tally, prefix,
                    () -> components.repositories(prefix, settings.namespace()))) {
                for (String tag : listed(tally, repository,
                        () -> components.tags(repository, settings.namespace()))) {
                    PublishKey key = new PublishKey(PublishSettings.normalise(repository), tag, settings.namespace());
                    if (key.refusal().filter(r -> r.reason().equals("VersionNotSemver")).isEmpty()) {
                        keys.add(key);
                    }
                }
            }
        }
        AreaPass.run(loop, reconciler, keys, scope, tally.byReply());
        return tally.result();
    }

    /** What the registry listed; a refusal or an outage counted as a failure of the pass, which goes on. */
    private static List<String> listed(AreaTally tally, String what, Supplier<ComponentSource.Listed> list) {
        Optional<ComponentSource.Listed> l = AreaPass.listed(tally, "Unavailable", "the listing of " + what, list);
        l.filter(r -> r.refusal() != null).ifPresent(r -> tally.failed(null, "ListingRefused", r.refusal()));
        return l.map(ComponentSource.Listed::items).orElse(List.of());
    }
}
