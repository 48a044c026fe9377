package dev.rekon.status;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.modules.lifecycle.apply.KubeApplyIdentity;
import dev.rekon.modules.lifecycle.status.LifecycleBoard;
import dev.rekon.modules.lifecycle.status.LifecycleRow;

/**
 * Adds the lifecycle modules to a status report when its area is {@code modules} (or all): the rows the
 * lifecycle's own plans left ({@link LifecycleBoard}, no API call) and who applies module objects.
 */
@ApplicationScoped
public class LifecycleStatus {

    @Inject
    LifecycleBoard board;

    @Inject
    KubeApplyIdentity identity;

    /** @param namespace only Kymas of this namespace, or null; @param area as {@code ?area=} asks, or null */
    public StatusReport addTo(StatusReport report, String namespace, String area) {
        if (area != null && !"modules".equals(area)) {
            return report;
        }
        List<LifecycleRow> rows = board.rows(namespace);
        return report.withLifecycle(new LifecycleSection(identity.serviceAccount().orElse(null),
                "module objects are applied " + identity.description(), LifecycleSection.SCOPE,
                (int) rows.stream().filter(LifecycleRow::problem).count(), rows));
    }
}
