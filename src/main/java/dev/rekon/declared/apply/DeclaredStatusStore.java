package dev.rekon.declared.apply;

import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.manifests.apply.InventoryStore;

/**
 * Where a DeclaredState keeps its inventory: its status, beside its finalizer. Each write of the DeclaredState is
 * guarded by the resourceVersion the one before answered, the first by the one it was read at.
 */
final class DeclaredStatusStore implements InventoryStore<DeclaredStateStatus> {

    private final DeclaredGateway gateway;
    private final DeclaredStateView state;
    private String version;

    DeclaredStatusStore(DeclaredGateway gateway, DeclaredStateView state) {
        this.gateway = gateway;
        this.state = state;
        this.version = state.resourceVersion();
    }

    @Override
    public void finalizer(boolean present) {
        version = gateway.finalizer(state, version, present);
    }

    @Override
    public void write(DeclaredStateStatus record) {
        version = gateway.writeStatus(state, version, record);
    }

    /** The DeclaredState's resourceVersion after the last write, or null when nothing was written. */
    String written() {
        return java.util.Objects.equals(version, state.resourceVersion()) ? null : version;
    }
}
