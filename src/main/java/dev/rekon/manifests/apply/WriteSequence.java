package dev.rekon.manifests.apply;

import java.time.Clock;
import java.util.function.Supplier;

import dev.rekon.cluster.EventRecorder;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.manifests.plan.ManifestWrites;
import dev.rekon.manifests.plan.WriteResult;

/**
 * Carries out a {@link ManifestWrites} in its order, the one write sequence of both areas that apply manifests:
 * the finalizer, the inventory written ahead (a failure part-way leaves every object that may exist recorded), the
 * staged apply and the guarded deletes ({@link StagedWrites}), what the plan records for their result, the
 * finalizer's removal. A write the server refuses for good stops the objects' writes; the plan's record of that
 * refusal is written, and the refusal goes on to the loop, which answers it rejected. Any other failure goes on at
 * once: the next attempt plans from what is there.
 */
public final class WriteSequence {

    private WriteSequence() {
    }

    /**
     * @param objects the owner's objects, as the identity that writes them (asked only when there are object
     *                writes)
     * @param store   where the area keeps the owner's inventory and finalizer
     */
    public static <R> WriteResult carryOut(ManifestWrites<R> plan, Supplier<? extends ManifestWriter> objects,
            InventoryStore<R> store, Clock clock) {
        if (plan.addFinalizer()) {
            store.finalizer(true);
        }
        if (plan.writeAhead() != null) {
            store.write(plan.writeAhead());
        }
        WriteResult result = WriteResult.WRITTEN;
        RefusedException refusal = null;
        if (plan.writesObjects()) {
            ManifestWriter writer = objects.get();
            try {
                var applied = StagedWrites.apply(writer, plan.apply(), plan.bodies());
                StagedWrites.delete(writer, plan.deletes());
                result = new WriteResult.Written(applied);
            } catch (RefusedException e) {
                refusal = e;
                result = new WriteResult.Refused(e.ref(), e.getMessage(), clock.instant());
            }
        }
        R after = plan.record(result);
        if (refusal == null && plan.forget()) {
            store.forget();
        } else if (after != null) {
            store.write(after);
        }
        if (refusal != null) {
            throw refusal;
        }
        if (plan.removeFinalizer()) {
            store.finalizer(false);
        }
        return result;
    }

    /** Records the Event the plan decided ({@link ManifestWrites#event}) on its owner. */
    public static void recordEvent(EventRecorder events, ObjectRef owner, ManifestWrites<?> plan) {
        Reply event = plan.event();
        if (event == null) {
            return;
        }
        if (event.outcome() == Outcome.REJECTED) {
            events.warning(owner, event.reason(), event.message());
        } else {
            events.normal(owner, event.reason(), event.message());
        }
    }
}
