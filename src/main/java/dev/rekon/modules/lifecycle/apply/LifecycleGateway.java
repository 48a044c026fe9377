package dev.rekon.modules.lifecycle.apply;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;


import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.apply.InventoryStore;
import dev.rekon.manifests.apply.ManifestWriter;
import dev.rekon.modules.lifecycle.KymaModule;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.plan.KymaStatusUpdate;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.release.KymaKind;

/**
 * All I/O of the module lifecycle: Kymas and Kyma's release objects, the modules' inventories (ConfigMaps in the
 * Kyma's namespace), the live objects of a module, and the writes of a plan: server-side apply with field manager
 * {@code rekon} (as the configured ServiceAccount, when one is), deletes, and the Kyma's status. Failures are
 * sorted here into Rekon's terms: a lost race is a {@link dev.rekon.core.ConflictException}, a refusal a
 * {@link dev.rekon.core.RefusedException} naming the object.
 */
public interface LifecycleGateway extends ManifestWriter {

    /** The Kyma as the apiserver holds it now (a read this process then knows the watch must catch up with). */
    Optional<KymaView> kyma(String namespace, String name);

    /**
     * Where a read of Kymas and Kyma's release objects may be served from: the apiserver ({@code LIVE}: after a lost
     * race), the watch unless it may lag behind a version this process read, wrote or an event carried
     * ({@code CACHED}: the loop's loads, which then read the apiserver), or the watch as it holds it now
     * ({@code HELD}: the page's, which makes no API call and has nothing while the watch has not synced).
     */
    enum Read {
        LIVE, CACHED, HELD
    }

    /** The Kyma, read as {@code read} says; the apiserver's by default. */
    default Optional<KymaView> kyma(String namespace, String name, Read read) {
        return kyma(namespace, name);
    }

    /** The object exists at {@code resourceVersion} or later (null: at a version a watch may not hold yet). */
    default void seen(ObjectRef ref, String resourceVersion) {
    }

    /** Whether the apiserver serves objects of the kind (discovery); every kind by default. */
    default boolean serves(String apiVersion, String kind) {
        return true;
    }

    /** The same, as {@code read} says: for {@code HELD}, as discovery last answered here, reading nothing. */
    default boolean serves(String apiVersion, String kind, Read read) {
        return serves(apiVersion, kind);
    }

    /** Every Kyma in a namespace, or in every namespace Rekon may act in when it is null. */
    List<KymaView> kymas(String namespace);

    /** The same, read as {@code read} says; as {@link #kymas(String)} by default. */
    default List<KymaView> kymas(String namespace, Read read) {
        return kymas(namespace);
    }

    /** Kyma's ModuleReleaseMetas or ModuleTemplates ({@code kind}) in a namespace. */
    <V> List<V> kymaObjects(KymaKind<V> kind, String namespace);

    /** The same, read as {@code read} says; as {@link #kymaObjects(KymaKind, String)} by default. */
    default <V> List<V> kymaObjects(KymaKind<V> kind, String namespace, Read read) {
        return kymaObjects(kind, namespace);
    }

    Optional<Inventory> inventory(KymaModule key);

    /**
     * Every module inventory in a namespace (null: every namespace), by module, with one list; empty when they
     * cannot be listed together (then each is read on its own), as by default.
     */
    default Optional<Map<KymaModule, Inventory>> inventories(String namespace) {
        return Optional.empty();
    }

    /** The modules of one Kyma that have an inventory (installed, or being installed or uninstalled). */
    List<String> inventoried(String namespace, String kyma);

    /** Writes the inventory, guarded by its resourceVersion (null: create); answers the new resourceVersion. */
    String writeInventory(KymaModule key, Inventory inventory);

    void deleteInventory(KymaModule key);

    /**
     * The module's inventory as the write sequence keeps it: the first write guarded by the resourceVersion it was
     * read at (none: created), each next one by the version the one before answered.
     */
    default InventoryStore<Inventory> inventoryStore(KymaModule key) {
        return new InventoryStore<>() {
            private String version;

            @Override
            public void write(Inventory record) {
                version = writeInventory(key, version == null ? record : record.withResourceVersion(version));
            }

            @Override
            public void forget() {
                deleteInventory(key);
            }
        };
    }

    /** The objects among {@code refs} that exist, by {@code Identity.key}, with the module their label names. */
    Map<String, LiveObject> live(String module, Collection<ObjectRef> refs);

    /**
     * Every object of a kind ({@code kind}'s apiVersion and kind) in every namespace, as metadata only (the owner
     * its label names, uid and resourceVersion), with one list; empty when it cannot be listed so (a kind not
     * served, a list refused), as by default.
     */
    default Optional<List<LiveObject>> listed(ObjectRef kind) {
        return Optional.empty();
    }

    /** The custom resources of a CRD, in every namespace. */
    List<ObjectRef> customResources(ObjectRef crd);

    /**
     * Sets the module's entry of the Kyma's {@code status.modules} and {@code status.state}, guarded by the Kyma's
     * resourceVersion as the update was planned from.
     */
    void writeKymaStatus(KymaStatusUpdate update);
}
