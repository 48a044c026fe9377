package dev.rekon.declared.status;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.declared.watch.DeclaredStates;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The DeclaredStates' part of the page: each one's last plan on this replica ({@link DeclaredBoard}), of those the
 * watch still holds (all, while it has not synced).
 */
@ApplicationScoped
public class DeclaredReport implements AreaReport {

    /** The area's name, in {@code ?area=} and in a resync's scope; here so that the page's part names no pass. */
    public static final String AREA = "declared";

    @Inject
    LastPlans plans;

    @Inject
    DeclaredStates states;

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        java.util.Set<String> exist = states.names(namespace).orElse(null);
        // A DeclaredState deleted since its last plan has no row.
        List<DeclaredRow> rows = DeclaredBoard.ROWS.rows(plans, namespace, now).stream()
                .filter(r -> exist == null || exist.contains(r.namespace() + "/" + r.name())).toList();
        return report.withSection(new DeclaredSection(DeclaredSection.SCOPE,
                (int) rows.stream().filter(DeclaredRow::problem).count(), rows));
    }

    @Override
    public String area() {
        return AREA;
    }
}
