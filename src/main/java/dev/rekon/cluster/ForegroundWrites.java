package dev.rekon.cluster;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Decides whether writes someone waits on are under way: a resync pass, whose reply is all of its keys' writes.
 * What only informs about a change already made (Kubernetes Events, {@link KubeEventRecorder}) waits for them, so
 * that at fleet scale it does not compete with them for the apiserver.
 */
@ApplicationScoped
public class ForegroundWrites {

    private final AtomicInteger underWay = new AtomicInteger();

    /** Runs {@code writes} as foreground writes, answering what they answer. */
    public <T> T during(Supplier<T> writes) {
        underWay.incrementAndGet();
        try {
            return writes.get();
        } finally {
            underWay.decrementAndGet();
        }
    }

    public boolean underWay() {
        return underWay.get() > 0;
    }
}
