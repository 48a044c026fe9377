package dev.rekon.resync;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

/**
 * Runs a resync pass: every {@link AreaResync} the scope names, one after the other, and one reply with their
 * results. One pass at a time in a process: a pass asked for while one runs waits for it, then runs on what the
 * watches show by then. An area that throws is counted as failed; the others still run.
 */
@ApplicationScoped
public class ResyncService {

    public static final String ALL = "all";
    public static final Set<String> SCOPES = Set.of(ALL, "rollouts", "buildpacks", "modules", "kymas", "declared",
            "publish", "promotions", "imagepromotions");

    private static final Logger LOG = Logger.getLogger(ResyncService.class);

    @Inject
    @Any
    Instance<AreaResync> areas;

    /** @param scope {@value #ALL} or one area's name, already checked against {@link #SCOPES} */
    public synchronized ResyncReply run(String scope, ResyncScope within) {
        long started = System.nanoTime();
        List<AreaResync> chosen = new ArrayList<>();
        areas.forEach(a -> {
            if (ALL.equals(scope) || a.area().equals(scope)) {
                chosen.add(a);
            }
        });
        chosen.sort(Comparator.comparing(AreaResync::area));
        List<AreaResult> results = new ArrayList<>();
        for (AreaResync area : chosen) {
            try {
                results.add(area.resync(within));
            } catch (RuntimeException e) {
                LOG.warnf(e, "resync of %s failed", area.area());
                results.add(new AreaResult(area.area(), 0, 0, 0, 0, 1,
                        List.of(new ResyncItem(null, "failed", "AreaFailed", String.valueOf(e.getMessage())))));
            }
        }
        ResyncReply reply = ResyncReply.of(scope, within, results);
        LOG.infof("resync %s%s in %d ms: %s", scope, within.namespace() == null ? "" : " of " + within.namespace(),
                (System.nanoTime() - started) / 1_000_000, reply.message());
        return reply;
    }
}
