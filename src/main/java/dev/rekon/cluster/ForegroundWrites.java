package dev.rekon.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

/**
 * Decides whether writes someone waits on are under way: a resync pass, whose reply is all of its keys' writes.
 * What only informs about a change already made (Kubernetes Events, {@link KubeEventRecorder}) waits for them, so
 * that at fleet scale it does not compete with them for the apiserver, and is told when the last of them ends
 * ({@link #whenIdle}).
 */
@ApplicationScoped
public class ForegroundWrites {

    private static final Logger LOG = Logger.getLogger(ForegroundWrites.class);

    private int underWay;
    private List<Runnable> onIdle = new ArrayList<>();

    /** Runs {@code writes} as foreground writes, answering what they answer. */
    public <T> T during(Supplier<T> writes) {
        synchronized (this) {
            underWay++;
        }
        try {
            return writes.get();
        } finally {
            ended();
        }
    }

    public synchronized boolean underWay() {
        return underWay > 0;
    }

    /**
     * Runs {@code then} once no foreground writes are under way: at once, on the caller's thread, when none are;
     * else on the thread of the last to end, right after it, so {@code then} only hands work on.
     */
    public void whenIdle(Runnable then) {
        synchronized (this) {
            if (underWay > 0) {
                onIdle.add(then);
                return;
            }
        }
        then.run();
    }

    private void ended() {
        List<Runnable> idle;
        synchronized (this) {
            if (--underWay > 0 || onIdle.isEmpty()) {
                return;
            }
            idle = onIdle;
            onIdle = new ArrayList<>();
        }
        for (Runnable then : idle) {
            try {
                then.run();
            } catch (RuntimeException e) {
                // What waited only follows the writes: its failure is not theirs.
                LOG.warnf(e, "what waited for the foreground writes to end failed: %s", e.getMessage());
            }
        }
    }
}
