package dev.rekon.modules.lifecycle.status;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.modules.lifecycle.apply.KubeApplyIdentity;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The lifecycle modules' part of the page (area {@code modules}): the rows the lifecycle's own plans on this
 * replica left ({@link LifecycleBoard}, no API call), and who applies module objects.
 */
@ApplicationScoped
public class LifecycleReport implements AreaReport {

    @Inject
    LastPlans plans;

    @Inject
    KubeApplyIdentity identity;

    @Override
    public String area() {
        return "modules";
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        List<LifecycleRow> rows = LifecycleBoard.ROWS.rows(plans, namespace, now);
        return report.withSection(new LifecycleSection(identity.serviceAccount().orElse(null),
                "module objects are applied " + identity.description(), LifecycleSection.SCOPE,
                (int) rows.stream().filter(LifecycleRow::problem).count(), rows));
    }
}
