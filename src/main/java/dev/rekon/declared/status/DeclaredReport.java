package dev.rekon.declared.status;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.declared.DeclaredResync;
import dev.rekon.status.AreaReport;
import dev.rekon.status.DeclaredRow;
import dev.rekon.status.DeclaredSection;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/** The DeclaredStates' part of the page: each one's last plan on this replica ({@link DeclaredBoard}). */
@ApplicationScoped
public class DeclaredReport implements AreaReport {

    @Inject
    DeclaredBoard board;

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        List<DeclaredRow> rows = board.rows(namespace);
        return report.withDeclared(new DeclaredSection(DeclaredSection.SCOPE,
                (int) rows.stream().filter(DeclaredRow::problem).count(), rows));
    }

    @Override
    public String area() {
        return DeclaredResync.AREA;
    }
}
