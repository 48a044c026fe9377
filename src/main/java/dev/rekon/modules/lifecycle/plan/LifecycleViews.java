package dev.rekon.modules.lifecycle.plan;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.modules.lifecycle.KymaModule;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.release.MaintenanceWindow;

/**
 * Everything the lifecycle planner decides from, read in one attempt; every input explicit.
 *
 * @param kyma       the Kyma, or null when it is gone (its modules are then uninstalled)
 * @param declared   the module's entry in the Kyma, or null when the Kyma no longer lists it
 * @param inventory  what the module has in the cluster, or null when it was never installed
 * @param resolution the release the entry resolves to, or null when not declared
 * @param live       the objects of the manifest and the inventory that exist, by {@code Identity.key}
 * @param blocking   custom resources of the module's CRDs other than its default one (read only to uninstall)
 * @param window     the maintenance window version changes wait for, or null
 * @param installed  the release the inventory names (its template and version), resolved again; null when not
 *                   read (the target is that version, or nothing is installed). While the target is refused, this
 *                   is what the Kyma runs, kept as it declares.
 */
public record LifecycleViews(KymaModule key, KymaView kyma, DeclaredModule declared, Inventory inventory,
        Resolution resolution, Map<String, LiveObject> live, List<ObjectRef> blocking, NamespacePolicy namespaces,
        MaintenanceWindow window, Instant now, Resolution installed) {

    public LifecycleViews {
        live = Map.copyOf(live);
        blocking = List.copyOf(blocking);
    }

    /** Views without the installed release read again. */
    public LifecycleViews(KymaModule key, KymaView kyma, DeclaredModule declared, Inventory inventory,
            Resolution resolution, Map<String, LiveObject> live, List<ObjectRef> blocking, NamespacePolicy namespaces,
            MaintenanceWindow window, Instant now) {
        this(key, kyma, declared, inventory, resolution, live, blocking, namespaces, window, now, null);
    }

    public LiveObject live(ObjectRef ref) {
        return live.get(Identity.key(ref));
    }
}
