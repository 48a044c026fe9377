package dev.rekon.pipeline;

import java.util.Optional;
import java.util.function.Function;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;

/**
 * An area's reconciler as a page plans with it, in report mode only: its loads are {@code held} (what the watches
 * and the area's last attempts hold, no API call), it writes nothing, and the loop keeps none of its plans, so a
 * page never takes the place of a plan being carried out. The plan is the area's own: the page decides nothing.
 */
public record ReportOnly<K, V, P extends Reconciler.Plan>(Reconciler<K, V, P> area, Function<K, Optional<V>> held)
        implements Reconciler<K, V, P> {

    @Override
    public ObjectRef subject(K key) {
        return area.subject(key);
    }

    @Override
    public Optional<V> load(K key, boolean fresh) {
        return held.apply(key);
    }

    @Override
    public Reply gone(K key) {
        return area.gone(key);
    }

    @Override
    public P plan(V views) {
        return area.plan(views);
    }

    @Override
    public void apply(P plan) {
        throw new IllegalStateException("a page writes nothing");
    }
}
