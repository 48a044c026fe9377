package dev.rekon.modules.publish;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.modules.publish.source.ComponentSource;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * Module publication's part of a resync pass, for registries that send no webhooks: every component version
 * tagged in the component-descriptor repositories under {@code rekon.modules.publish.repositories} goes through
 * the same {@link PublishService} as a push. Tags that are not module versions ({@code latest}) are left out. A
 * version already published with the same digest costs two reads of the apiserver and one HEAD of its manifest,
 * and writes nothing. Skipped while publication is off or the cluster does not serve Kyma's kinds.
 */
@ApplicationScoped
public class PublishResync implements AreaResync {

    public static final String AREA = "publish";

    @Inject
    PublishSettings settings;

    @Inject
    PublishService service;

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
        for (String prefix : settings.repositories()) {
            for (String repository : listed(tally, prefix,
                    () -> components.repositories(prefix, settings.namespace()))) {
                for (String tag : listed(tally, repository,
                        () -> components.tags(repository, settings.namespace()))) {
                    PublishKey key = new PublishKey(repository, tag, settings.namespace());
                    if (key.refusal().filter(r -> r.reason().equals("VersionNotSemver")).isPresent()) {
                        continue;
                    }
                    tally.count(key.module() == null ? null : key.templateRef(), () -> scope.report()
                            ? service.report(repository, tag) : service.publish(repository, tag, false));
                }
            }
        }
        return tally.result();
    }

    /** What the registry listed; a refusal or an outage counted as a failure of the pass, which goes on. */
    private static List<String> listed(AreaTally tally, String what, Supplier<ComponentSource.Listed> list) {
        try {
            ComponentSource.Listed l = list.get();
            if (l.refusal() != null) {
                tally.failed(null, "ListingRefused", l.refusal());
            }
            return l.items();
        } catch (TransientFailureException e) {
            tally.failed(null, "Unavailable", "listing " + what + ": " + e.getMessage());
            return List.of();
        }
    }
}
