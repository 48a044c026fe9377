package dev.rekon.declared;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.declared.watch.DeclaredStates;
import dev.rekon.pipeline.ReconcileLoop;

/**
 * Finds which DeclaredStates an input concerns and runs each through the one {@link ReconcileLoop} with
 * {@link DeclaredStateReconciler}. The loop's work queue keeps one DeclaredState to one thread at a time in this
 * process, whatever the input (an event, a push, the resync pass: all share the DeclaredState as their identity),
 * so pushes arriving together apply the tip once: the second finds it applied. Across replicas the DeclaredState's
 * own writes are guarded by its resourceVersion, so the loser plans again.
 */
@ApplicationScoped
public class DeclaredStateService {

    @Inject
    DeclaredStates states;

    @Inject
    DeclaredStateReconciler reconciler;

    @Inject
    ReconcileLoop loop;

    /** A person asks for a DeclaredState. */
    public Reply changed(String namespace, String name) {
        return reconcile(new DeclaredKey(namespace, name, false));
    }

    /**
     * A DeclaredState was created, changed or deleted: at {@code resourceVersion} (null when the event does not
     * say), so that a watch still behind it is not planned from.
     */
    public Reply stateChanged(String namespace, String name, String resourceVersion) {
        if (loop.refusal(namespace, new DeclaredKey(namespace, name, false).ref()).isEmpty()) {
            states.seen(namespace, name, resourceVersion);
        }
        return changed(namespace, name);
    }

    /**
     * A Deployment, StatefulSet, DaemonSet or Job a DeclaredState applied changed or was deleted. A delete is put
     * back at once (or found pruned); a change is planned again only while the DeclaredState waits for a rollout (as
     * the Ready condition its last plan decided says, or when the watch does not hold it yet), so that Ready follows a rollout that finished
     * without waiting for the resync. Other changes answer unchanged, at no git or API cost.
     */
    public Reply appliedObjectChanged(ObjectRef object, DeclaredKey key, boolean deleted) {
        Optional<Reply> refusal = loop.refusal(key.namespace(), key.ref());
        if (refusal.isPresent()) {
            return refusal.get();
        }
        if (!deleted && !waitsForRollout(key)) {
            return Reply.unchanged("NotRollingOut", object + " changed; DeclaredState " + key.namespace() + "/"
                    + key.name() + " waits for no rollout, so nothing is planned again", List.of(object, key.ref()));
        }
        return reconcile(key);
    }

    /**
     * Whether the DeclaredState's last plan, on any replica, left it waiting for what it applied to roll out (or not
     * Ready): its Ready condition, as the plan decided it, is not True. True when the watch does not hold it yet,
     * since only planning can tell.
     */
    private boolean waitsForRollout(DeclaredKey key) {
        return states.cached(key.namespace(), key.name()).map(s -> !"True".equals(s.recorded().ready())).orElse(true);
    }

    public Reply reconcile(DeclaredKey key) {
        return loop.reconcile(reconciler, key);
    }

    public Reply report(DeclaredKey key) {
        return loop.report(reconciler, key);
    }

    /**
     * Every DeclaredState in scope (a namespace, or all Rekon may act in), from their watch, scanning for orphans;
     * all of them share {@code tips}, so a pass lists each repository's branch once.
     */
    public List<DeclaredKey> everyState(String namespace, TipMemo tips) {
        return states.allOffTheEventPath(namespace).stream().map(s -> new DeclaredKey(s.namespace(), s.name(), true, tips))
                .toList();
    }
}
