package dev.rekon.modules.lifecycle.plan;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.plan.ManifestWrites;
import dev.rekon.manifests.plan.WriteResult;
import dev.rekon.modules.lifecycle.KymaModule;
import dev.rekon.modules.lifecycle.intent.ModuleStatus;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.pipeline.Reconciler;

/**
 * What one attempt does to one module of one Kyma, in order: record {@code writeAhead} in the inventory (null:
 * nothing new to record), apply {@code apply} (staged; CRDs Established before the rest), delete {@code delete}
 * (in that order), record {@code inventory} (null: unchanged) or drop it ({@code forget}): the shared
 * {@link ManifestWrites}, its inventory kept in a ConfigMap. Then write the Kyma's status ({@code kymaStatus}; null:
 * already so). {@code status} is the module's entry, for reports.
 */
public record LifecyclePlan(KymaModule key, Action action, Inventory writeAhead, List<ObjectNode> apply,
        List<LiveObject> delete, Inventory inventory, boolean forget, ModuleStatus status, KymaStatusUpdate kymaStatus,
        List<ObjectRef> drifted, Reply reply) implements Reconciler.Plan, ManifestWrites<Inventory> {

    /** What the plan does, for Events and the status page. */
    public enum Action {
        INSTALL, UPGRADE, REPAIR, NONE, REFUSED, UNMANAGE, DELETING, UNINSTALL
    }

    public LifecyclePlan {
        apply = List.copyOf(apply);
        delete = List.copyOf(delete);
        drifted = List.copyOf(drifted);
    }

    /** The objects it deletes, in order. */
    public List<ObjectRef> deleted() {
        return delete.stream().map(LiveObject::ref).toList();
    }

    @Override
    public List<LiveObject> deletes() {
        return delete;
    }

    /** The inventory that follows once every object write was made; a refused write leaves it as written ahead. */
    @Override
    public Inventory record(WriteResult result) {
        return result instanceof WriteResult.Refused ? null : inventory;
    }

    /** A plan that writes says what it did on the Kyma (a refusal as a warning). */
    @Override
    public Reply event() {
        return writes() ? reply : null;
    }

    /** Whether carrying it out writes anything at all. */
    public boolean writes() {
        return writeAhead != null || !apply.isEmpty() || !delete.isEmpty() || inventory != null || forget
                || kymaStatus != null;
    }

    /** A plan that writes nothing but, where it changed, the module's status entry. */
    static LifecyclePlan only(LifecycleViews v, Action action, ModuleStatus status, Reply reply) {
        return new LifecyclePlan(v.key(), action, null, List.of(), List.of(), null, false, status,
                KymaStatusUpdate.of(v.kyma(), v.key().module(), status), List.of(), reply);
    }

    /** This plan dropping the inventory at its end: the module is no longer Rekon's to manage. */
    LifecyclePlan forgetting(boolean hadInventory) {
        return new LifecyclePlan(key, action, writeAhead, apply, delete, null, hadInventory, status, kymaStatus, drifted,
                reply);
    }
}
