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

import dev.rekon.cluster.ForegroundWrites;
import dev.rekon.web.FanoutSink;

/**
 * Runs a resync pass: every {@link AreaResync} the scope names, one after the other, and one reply with their
 * results. One pass at a time in a process: a pass asked for while one runs waits for it, then runs on what the
 * watches show by then. An area that throws is counted as failed; the others still run.
 * <p>
 * A pass that came as an event, with a fan-out sink set ({@link FanoutSink}), is fanned out ({@link FanoutPass}):
 * each key with a reconcile event of its own is sent as that event, named after the pass's event, rather than
 * worked here; a pass that could send none of them is a transient failure, redelivered whole. A report and the
 * start-up pass never fan out: each replica's start would otherwise send the whole fleet to the others. A pass
 * that may write runs as {@link ForegroundWrites}: the Kubernetes Events its writes record follow its reply.
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

    @Inject
    FanoutSink fanout;

    @Inject
    ForegroundWrites foreground;

    /**
     * A pass that works every key here.
     *
     * @param scope {@value #ALL} or one area's name, already checked against {@link #SCOPES}
     */
    public ResyncReply run(String scope, ResyncScope within) {
        return run(scope, within, null);
    }

    /** A pass asked for by the event {@code passId}: fanned out when a fan-out sink is set. */
    public synchronized ResyncReply run(String scope, ResyncScope within, String passId) {
        return within.report() ? pass(scope, within, passId) : foreground.during(() -> pass(scope, within, passId));
    }

    private ResyncReply pass(String scope, ResyncScope within, String passId) {
        FanoutPass pass = passId == null || within.report() || fanout == null || fanout.sink().isEmpty() ? null
                : new FanoutPass(passId, fanout::send);
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
                results.add(pass == null ? area.resync(within)
                        : pass.counted(area.resync(pass.scope(within, area.area()))));
            } catch (RuntimeException e) {
                LOG.warnf(e, "resync of %s failed", area.area());
                results.add(new AreaResult(area.area(), 0, 0, 0, 0, 1,
                        List.of(new ResyncItem(null, "failed", "AreaFailed", String.valueOf(e.getMessage())))));
            }
        }
        if (pass != null) {
            pass.requireSomeSent();
        }
        ResyncReply reply = ResyncReply.of(scope, within, results);
        LOG.infof("resync %s%s in %d ms: %s", scope, within.namespace() == null ? "" : " of " + within.namespace(),
                (System.nanoTime() - started) / 1_000_000, reply.message());
        return reply;
    }
}
