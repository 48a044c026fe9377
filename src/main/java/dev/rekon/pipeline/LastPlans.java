package dev.rekon.pipeline;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The last plan of each key this replica's loop made, for the areas that show it (the page's lifecycle rows, say)
 * or plan the page from what it read (a DeclaredState's objects), so that a page costs no API call. The loop records it, never a planner: after each plan (written or only
 * reported) what the area remembers of it ({@link Reconciler#remember}: a row, usually), and after the plan was
 * written in full, that it was; a key whose object is gone is forgotten. A newer plan replaces an older one, and writing an older plan never marks a newer
 * one carried out. Kept only for areas that name themselves ({@link Reconciler#lastPlansArea}).
 */
@ApplicationScoped
public class LastPlans {

    /**
     * One key's last plan: the plan (null once carried out, for an area that then remembers how it left things),
     * what the area remembers of it, and whether it was written in full.
     *
     * @param <R> what the area remembers (a page row)
     */
    public record Last<R>(Reconciler.Plan plan, R remembered, boolean carriedOut) {
    }

    private final Map<String, Map<Object, Last<?>>> areas = new ConcurrentHashMap<>();

    /** The loop made a plan for the key: what the area remembers of it replaces the last (nothing: forgotten). */
    <K, V, P extends Reconciler.Plan> void planned(Reconciler<K, V, P> area, Object key, V views, P plan) {
        String name = area.lastPlansArea();
        if (name == null) {
            return;
        }
        Object remembered = area.remember(views, plan);
        Map<Object, Last<?>> keys = areas.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
        if (remembered == null) {
            keys.remove(key);
        } else {
            keys.put(key, new Last<>(plan, remembered, false));
        }
    }

    /**
     * The plan was written in full, its writes answering {@code answer}: marked so, unless a newer plan took its
     * place meanwhile; and where the area says how the plan left things, from what was remembered and that answer
     * ({@link Reconciler#rememberCarriedOut}), that is kept instead of the plan (then null).
     */
    <K, V, P extends Reconciler.Plan> void carriedOut(Reconciler<K, V, P> area, Object key, P plan, Object answer) {
        String name = area.lastPlansArea();
        Map<Object, Last<?>> keys = name == null ? null : areas.get(name);
        if (keys != null) {
            keys.computeIfPresent(key, (k, last) -> {
                if (last.plan() != plan) {
                    return last;
                }
                Object after = area.rememberCarriedOut(last.remembered(), plan, answer);
                return after == null ? new Last<>(plan, last.remembered(), true) : new Last<>(null, after, true);
            });
        }
    }

    /** The object is gone (deleted, or never there): its last plan is forgotten, so the page shows no row of it. */
    <K, V, P extends Reconciler.Plan> void gone(Reconciler<K, V, P> area, Object key) {
        String name = area.lastPlansArea();
        Map<Object, Last<?>> keys = name == null ? null : areas.get(name);
        if (keys != null) {
            keys.remove(key);
        }
    }

    /** Every key's last plan in the area named. */
    @SuppressWarnings("unchecked")
    public <R> List<Last<R>> of(String area) {
        Map<Object, Last<?>> keys = areas.get(area);
        return keys == null ? List.of() : keys.values().stream().map(l -> (Last<R>) l).toList();
    }

    /** One key's last plan in the area named ({@link Reconciler#lastPlanKey}). */
    @SuppressWarnings("unchecked")
    public <R> Optional<Last<R>> of(String area, Object key) {
        Map<Object, Last<?>> keys = areas.get(area);
        return Optional.ofNullable(keys == null ? null : (Last<R>) keys.get(key));
    }
}
