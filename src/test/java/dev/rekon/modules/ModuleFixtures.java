package dev.rekon.modules;

import java.util.Map;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.SemVer;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.SignatureCheck;

/** Small builders for planner tests: a kpack-like module with a controller and a webhook container. */
public final class ModuleFixtures {

    public static final String REGISTRY = "registry.example/kpack/";

    private ModuleFixtures() {
    }

    public static ModuleDeployment deployment(String version, String channel) {
        return deployment("kpack-controller", version, channel, 2, null);
    }

    public static ModuleDeployment deployment(String name, String version, String channel, int replicas, Integer before) {
        return new ModuleDeployment(new ObjectRef("apps/v1", "Deployment", "kpack", name), "7", "kpack", version,
                channel, Map.of("controller", REGISTRY + "controller:" + version, "sidecar", "proxy:1"), replicas, before);
    }

    public static ModuleRelease release(String version, String channel) {
        return release(version, channel, false, false, SignatureCheck.verified("verified with key a.pem"));
    }

    public static ModuleRelease release(String version, String channel, boolean switchChannel, boolean downgrade,
            SignatureCheck signature) {
        return new ModuleRelease("kpack", SemVer.parse(version), channel, switchChannel,
                Map.of("controller", REGISTRY + "controller:" + version, "webhook", REGISTRY + "webhook:" + version),
                downgrade, signature, "ModuleTemplate kcp-system/kpack-" + version);
    }

    /** The module reconciler over an in-memory cluster, with the given trust and clock; manual changes to {@code events}. */
    static ModuleReconciler reconciler(InMemoryModules cluster, ModuleTrust trust, java.time.Clock clock,
            dev.rekon.cluster.EventRecorder events) {
        ModuleReconciler modules = ModuleReconciler.planning(trust, clock);
        modules.gateway = cluster;
        modules.manualChanges = new ModuleManualChanges();
        modules.manualChanges.gateway = cluster;
        modules.manualChanges.events = events;
        return modules;
    }

    /** The one reconcile loop, every namespace allowed (a module's gateway reads only allowed ones anyway). */
    static dev.rekon.pipeline.ReconcileLoop loop() {
        return dev.rekon.pipeline.ReconcileLoop.of(dev.rekon.pipeline.NamespaceGuard.of(
                dev.rekon.core.NamespacePolicy.parse("*", true)));
    }

    /** Trust without keys or maintenance window; signatures required or not. */
    static ModuleTrust trust(boolean requireSignature) {
        ModuleTrust trust = new ModuleTrust();
        trust.requireSignature = requireSignature;
        trust.publicKeys = java.util.Optional.empty();
        trust.maintenanceWindow = java.util.Optional.empty();
        trust.load();
        return trust;
    }
}
