package dev.rekon.declared;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.declared.apply.DeclaredGateway;
import dev.rekon.pipeline.ReconcileLoop;

/**
 * Finds which DeclaredStates an input concerns and runs each through the one {@link ReconcileLoop} with
 * {@link DeclaredStateReconciler}, one at a time per DeclaredState in this process (pushes arriving together then
 * apply the tip once: the second finds it applied); across replicas the DeclaredState's own writes are guarded by
 * its resourceVersion, so the loser plans again.
 */
@ApplicationScoped
public class DeclaredStateService {

    private static final int STRIPES = 64;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    @Inject
    DeclaredGateway gateway;

    @Inject
    DeclaredStateReconciler reconciler;

    @Inject
    ReconcileLoop loop;

    public DeclaredStateService() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /** A DeclaredState was created, changed or deleted, or a person asks for it. */
    public Reply changed(String namespace, String name) {
        return reconcile(new DeclaredKey(namespace, name, false));
    }

    public Reply reconcile(DeclaredKey key) {
        ReentrantLock lock = locks[Math.floorMod((key.namespace() + "/" + key.name()).hashCode(), STRIPES)];
        lock.lock();
        try {
            return loop.reconcile(reconciler, key);
        } finally {
            lock.unlock();
        }
    }

    public Reply report(DeclaredKey key) {
        return loop.report(reconciler, key);
    }

    /** Every DeclaredState in scope (a namespace, or all Rekon may act in), scanning for orphans. */
    public List<DeclaredKey> everyState(String namespace) {
        return gateway.states(namespace).stream().map(s -> new DeclaredKey(s.namespace(), s.name(), true)).toList();
    }
}
