package dev.rekon.resync;

import java.util.ArrayList;
import java.util.List;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;

/**
 * Counts one area's pass object by object (each object once: changed, unchanged, drifted or failed) and makes
 * its {@link AreaResult}. Safe to use from the threads of one pass.
 */
public final class AreaTally implements AreaPass.Counter {

    private final String area;
    private int changed;
    private int unchanged;
    private int drifted;
    private int failed;
    private final List<ResyncItem> objects = new ArrayList<>();

    public AreaTally(String area) {
        this.area = area;
    }

    public synchronized void unchanged() {
        unchanged++;
    }

    /** Changed, or in report mode: would change. */
    public synchronized void changed(ObjectRef object, String reason, String message) {
        changed++;
        objects.add(new ResyncItem(object, "changed", reason, message));
    }

    /** Changed by hand: reported and left as it is. */
    public synchronized void drifted(ObjectRef object, String reason, String message) {
        drifted++;
        objects.add(new ResyncItem(object, "drifted", reason, message));
    }

    /** Not brought in line this pass; the next pass tries again. */
    @Override
    public synchronized void failed(ObjectRef object, String reason, String message) {
        failed++;
        objects.add(new ResyncItem(object, "failed", reason, message));
    }

    /** A key of an {@link AreaPass}: a plan that writes is a change, as applied is; else as {@link #count(ObjectRef, java.util.function.Supplier)}. */
    @Override
    public void count(ObjectRef object, Reply reply, boolean writes) {
        count(object, () -> writes && reply.outcome() != Outcome.REJECTED ? Reply.applied(reply.reason(),
                reply.message(), reply.objects()) : reply);
    }

    /**
     * Counts one object by the reply of its pass through the loop: applied is a change (in report mode: would
     * change), rejected and a transient failure are failures the next pass retries, anything else unchanged.
     */
    public void count(ObjectRef object, java.util.function.Supplier<Reply> pass) {
        try {
            Reply r = pass.get();
            if (r.outcome() == Outcome.APPLIED) {
                changed(object, r.reason(), r.message());
            } else if (r.outcome() == Outcome.REJECTED) {
                failed(object, r.reason(), r.message());
            } else {
                unchanged();
            }
        } catch (TransientFailureException e) {
            failed(object, "Unavailable", e.getMessage());
        }
    }

    /**
     * A counter for an {@link AreaPass} that counts each key by its reply alone, as {@link #count(ObjectRef,
     * java.util.function.Supplier)} does (a plan that writes yet answers unchanged, such as a note recorded, is no
     * change), and a transient failure as {@code Unavailable}.
     */
    public AreaPass.Counter byReply() {
        return new AreaPass.Counter() {
            @Override
            public void count(ObjectRef object, Reply reply, boolean writes) {
                AreaTally.this.count(object, () -> reply);
            }

            @Override
            public void failed(ObjectRef object, String reason, String message) {
                AreaTally.this.failed(object, "Unavailable", message);
            }
        };
    }

    public synchronized AreaResult result() {
        return new AreaResult(area, changed + unchanged + drifted + failed, changed, unchanged, drifted, failed, objects);
    }
}
