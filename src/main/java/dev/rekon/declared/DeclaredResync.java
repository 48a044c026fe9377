package dev.rekon.declared;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * Declared state's part of a resync pass: every DeclaredState through the same loop as its events, scanning its
 * namespaces for orphans, so a lost push is applied, drift is put back, deleted objects come back, and orphans
 * past their grace period go; a converged DeclaredState costs one ls-remote and no write. In report mode nothing
 * is written. A cluster without the DeclaredState CRD skips the area.
 */
@ApplicationScoped
public class DeclaredResync implements AreaResync {

    public static final String AREA = "declared";

    @Inject
    DeclaredStateService service;

    @Inject
    InstalledKinds kinds;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        Optional<String> missing = kinds.notInstalled("declared state", List.of(InstalledKinds.DECLARED_STATE));
        if (missing.isPresent()) {
            return AreaResult.skipped(AREA, missing.get());
        }
        AreaTally tally = new AreaTally(AREA);
        // One memo for the pass: each repository's branch listed once; a report lists none.
        TipMemo tips = scope.report() ? TipMemo.lastKnown() : TipMemo.perInput();
        for (DeclaredKey key : service.everyState(scope.namespace(), tips)) {
            tally.count(key.ref(), () -> scope.report() ? service.report(key) : service.reconcile(key));
        }
        return tally.result();
    }
}
