package dev.rekon.resync;

/**
 * One area's part of a resync pass (rollouts, buildpacks, modules): re-derives from the watch caches what every
 * object the area manages should be, and applies the same planners the events use. Implementations are CDI
 * beans; the pass calls every one whose {@link #area()} the scope asks for. A transient failure of one object is
 * counted in the result, never thrown, so one broken object cannot fail the whole pass.
 */
public interface AreaResync {

    /** {@code rollouts}, {@code buildpacks} or {@code modules}: the name a {@code dev.rekon.resync} scope uses. */
    String area();

    AreaResult resync(ResyncScope scope);
}
