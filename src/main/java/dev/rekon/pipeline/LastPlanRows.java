package dev.rekon.pipeline;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * How an area shows the loop's last plans ({@link LastPlans}) as rows of the page, decided once for every area that
 * keeps them: each key's row as the area reads its last plan (as only planned, or as carried out in full, at the
 * page's now; empty: the key has no row), in a namespace (null: all), in the area's order. No API call: the rows
 * are in memory.
 *
 * @param area      the name the area's plans are kept under ({@link Reconciler#lastPlansArea})
 * @param shown     the row a last plan shows at the page's now, or empty
 * @param namespace the namespace of a row
 * @param order     problem rows first, then the area's own order
 * @param <R>       the area's row
 */
public record LastPlanRows<R>(String area, BiFunction<LastPlans.Last<R>, Instant, Optional<R>> shown,
        Function<R, String> namespace, Comparator<R> order) {

    /** The rows of the last plans in {@code plans}, in {@code ns} (null: every namespace), as shown at {@code now}. */
    public List<R> rows(LastPlans plans, String ns, Instant now) {
        return rows(plans.<R>of(area), ns, now);
    }

    /** The rows of these last plans of the area. */
    public List<R> rows(List<LastPlans.Last<R>> last, String ns, Instant now) {
        return last.stream().map(l -> shown.apply(l, now)).flatMap(Optional::stream)
                .filter(r -> ns == null || ns.equals(namespace.apply(r))).sorted(order).toList();
    }
}
