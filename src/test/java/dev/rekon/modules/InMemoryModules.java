package dev.rekon.modules;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.modules.apply.ModuleGateway;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.testing.Failures;

/**
 * Rekon's {@link ModuleGateway} over maps, for service tables: patches are checked against the Deployment's
 * resourceVersion as the apiserver checks them (a stale one is a 409), applied, and logged in order.
 */
final class InMemoryModules implements ModuleGateway {

    final Map<String, ModuleDeployment> deployments = new LinkedHashMap<>();
    final List<JsonNode> kymaObjects = new ArrayList<>();
    final List<String> writes = new ArrayList<>();
    private final Deque<RuntimeException> failNext = new ArrayDeque<>();
    private long version = 100;

    InMemoryModules failNextPatch(RuntimeException failure) {
        failNext.add(failure);
        return this;
    }

    /** Stores the Deployment as the apiserver would, with a resourceVersion. */
    InMemoryModules deployment(ModuleDeployment d) {
        deployments.put(d.ref().name(), d.resourceVersion() != null ? d : new ModuleDeployment(d.ref(),
                String.valueOf(++version), d.module(), d.version(), d.channel(), d.containerImages(), d.replicas(),
                d.replicasBeforeDisable()));
        return this;
    }

    @Override
    public List<ModuleDeployment> deployments(String module, boolean fresh) {
        return deployments.values().stream().filter(d -> module.equals(d.module())).toList();
    }

    @Override
    public List<ModuleDeployment> allModuleDeployments() {
        return List.copyOf(deployments.values());
    }

    @Override
    public <V> Optional<V> read(KymaKind<V> kind, String namespace, String name) {
        return kymaObjects.stream().filter(o -> kind.kind().equals(o.path("kind").asText())
                && namespace.equals(o.at("/metadata/namespace").asText()) && name.equals(o.at("/metadata/name").asText()))
                .findFirst().map(kind.view());
    }

    @Override
    public <V> List<V> list(KymaKind<V> kind, String namespace) {
        return kymaObjects.stream().filter(o -> kind.kind().equals(o.path("kind").asText())
                && (namespace == null || namespace.equals(o.at("/metadata/namespace").asText()))).map(kind.view())
                .toList();
    }

    @Override
    public void patch(DeploymentPatch p) {
        ModuleDeployment live = deployments.get(p.ref().name());
        RuntimeException failure = failNext.poll();
        writes.add("patch " + p.ref() + (failure != null ? " (failed)" : ""));
        if (failure != null) {
            throw failure;
        }
        if (live == null || !live.resourceVersion().equals(p.resourceVersion())) {
            writes.set(writes.size() - 1, writes.get(writes.size() - 1) + " (conflict)");
            throw Failures.conflict("patching " + p.ref());
        }
        Map<String, String> images = new HashMap<>(live.containerImages());
        images.putAll(p.images());
        Integer before = p.replicasBeforeDisable() == null ? live.replicasBeforeDisable()
                : p.replicasBeforeDisable().equals(DeploymentPatch.REMOVE) ? null : Integer.valueOf(p.replicasBeforeDisable());
        String reported = p.manualChange() == null ? live.reportedChange()
                : p.manualChange().equals(DeploymentPatch.REMOVE) ? null : p.manualChange();
        deployments.put(p.ref().name(), new ModuleDeployment(live.ref(), String.valueOf(++version), live.module(),
                p.version() != null ? p.version() : live.version(), p.channel() != null ? p.channel() : live.channel(),
                images, p.replicas() != null ? p.replicas() : live.replicas(), before,
                p.appliedImages() != null ? p.appliedImages() : live.appliedImages(), live.suspended(), reported));
    }

}
