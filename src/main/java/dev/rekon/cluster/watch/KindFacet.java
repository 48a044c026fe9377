package dev.rekon.cluster.watch;

/** A {@link WatchFacet} of a kind fixed when it is made. */
public abstract class KindFacet<F> implements WatchFacet<F> {

    private final WatchedKindId kind;

    protected KindFacet(WatchedKindId kind) {
        this.kind = kind;
    }

    @Override
    public final WatchedKindId kind() {
        return kind;
    }
}
