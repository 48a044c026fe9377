package dev.rekon.resync;

import dev.rekon.web.OutgoingEvent;

/**
 * An area whose key has a reconcile event of its own: the CloudEvent its functions already take for one object
 * (a manual reconcile, or the ApiServerSource event of the object in Reference mode). A fanned-out pass
 * ({@link FanoutPass}) sends that event instead of working the key; an area without one works its keys itself.
 *
 * @param <K> the key of the area's {@link dev.rekon.pipeline.Reconciler}
 */
public interface FannedOut<K> {

    /** The event whose function reconciles the object {@code key} names: type, extensions and data, no id. */
    OutgoingEvent reconcileEvent(K key);
}
