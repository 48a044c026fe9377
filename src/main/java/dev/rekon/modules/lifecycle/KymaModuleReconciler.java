package dev.rekon.modules.lifecycle;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.RekonConfig;
import dev.rekon.core.Reply;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.lifecycle.apply.LifecycleWrites;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecyclePlanner;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.plan.ServedKinds;
import dev.rekon.modules.lifecycle.plan.Release;
import dev.rekon.modules.lifecycle.plan.Resolution;
import dev.rekon.modules.lifecycle.status.LifecycleBoard;
import dev.rekon.modules.lifecycle.status.LifecycleRows;
import dev.rekon.pipeline.Reconciler;

/**
 * The module lifecycle as the one reconcile loop runs it, for one module of one Kyma: reads the Kyma, the
 * module's inventory, its release and the live objects of both, plans with {@link LifecyclePlanner}, and has
 * {@link LifecycleWrites} carry the plan out. Every plan, carried out or only reported, is the module's row on
 * the status page ({@link LifecycleBoard}).
 */
@ApplicationScoped
public class KymaModuleReconciler implements Reconciler<KymaModule, LifecycleViews, LifecyclePlan> {

    @Inject
    LifecycleGateway gateway;

    @Inject
    KymaReleases releases;

    @Inject
    LifecycleWrites writes;

    @Inject
    RekonConfig config;

    @Inject
    ModuleTrust trust;

    @Inject
    Clock clock;

    @Override
    public ObjectRef subject(KymaModule key) {
        return key.kymaRef();
    }

    @Override
    public Optional<LifecycleViews> load(KymaModule key, boolean fresh) {
        KymaView kyma = gateway.kyma(key.namespace(), key.kyma()).orElse(null);
        DeclaredModule declared = kyma == null || kyma.deleting() ? null : kyma.declared(key.module()).orElse(null);
        Inventory inventory = gateway.inventory(key).orElse(null);
        Resolution resolution = declared != null && declared.managed() ? served(releases.resolve(key, declared))
                : null;
        Resolution installed = installed(key, inventory, resolution);
        Set<ObjectRef> refs = new LinkedHashSet<>();
        if (resolution instanceof Resolution.Found f) {
            refs.addAll(desiredRefs(f.release()));
        }
        if (installed instanceof Resolution.Found f) {
            refs.addAll(desiredRefs(f.release()));
        }
        if (inventory != null) {
            inventory.objects().forEach(e -> refs.add(e.ref()));
        }
        List<ObjectRef> blocking = declared == null && inventory != null ? blocking(inventory) : List.of();
        return Optional.of(new LifecycleViews(key, kyma, declared, inventory, resolution,
                refs.isEmpty() ? java.util.Map.of() : gateway.live(key.module(), refs), blocking,
                config.namespacePolicy(), trust.policy().window().orElse(null), clock.instant(), installed));
    }

    /**
     * The installed release read again, only when the target may be refused while it runs: the target is
     * unavailable or another version than the inventory's (a converged module costs no second read).
     */
    private Resolution installed(KymaModule key, Inventory inventory, Resolution target) {
        if (target == null || inventory == null || inventory.version() == null
                || target instanceof Resolution.Found f && f.release().version().equals(inventory.version())) {
            return null;
        }
        return releases.installed(key, inventory);
    }

    /**
     * A release that declares an object of a kind the apiserver does not serve, and that none of its own CRDs
     * declares, cannot be installed: known from discovery before anything is written, it is unavailable
     * ({@value ServedKinds#REASON}) and refused whole, the installed release kept; otherwise the install would fail
     * halfway, after the objects sorting before it were written.
     */
    private Resolution served(Resolution resolution) {
        if (!(resolution instanceof Resolution.Found f)) {
            return resolution;
        }
        List<ObjectNode> objects = new ArrayList<>(f.release().manifest().objects());
        if (f.release().manifest().defaultCr() != null) {
            objects.add(f.release().manifest().defaultCr());
        }
        Set<String> unserved = ServedKinds.unserved(objects.stream().map(ManifestObjects::ref).toList(),
                gateway::serves);
        return ServedKinds.firstUnserved(objects, unserved).<Resolution>map(o -> {
            ObjectRef ref = ManifestObjects.ref(o);
            return new Resolution.Unavailable(ServedKinds.REASON, "version " + f.release().version() + " of module "
                    + f.release().manifest().module() + " declares " + ref + " of kind " + ref.kind() + " in "
                    + ref.apiVersion() + ", which the API server does not serve; install its CustomResourceDefinition"
                    + " (or ship it in the module) or fix the manifest; nothing of this version was applied");
        }).orElse(resolution);
    }

    private static List<ObjectRef> desiredRefs(Release r) {
        List<ObjectRef> refs = new ArrayList<>();
        r.manifest().objects().forEach(o -> refs.add(ManifestObjects.ref(o)));
        if (r.manifest().defaultCr() != null) {
            refs.add(ManifestObjects.ref(r.manifest().defaultCr()));
        }
        ObjectRef manager = r.manager();
        if (manager != null) {
            refs.add(manager);
        }
        return refs;
    }

    /** Custom resources of the module's CRDs, other than its default one: they hold its uninstall. */
    private List<ObjectRef> blocking(Inventory inventory) {
        List<ObjectRef> blocking = new ArrayList<>();
        for (Inventory.Entry e : inventory.objects()) {
            if ("CustomResourceDefinition".equals(e.ref().kind())) {
                gateway.customResources(e.ref()).stream().filter(cr -> inventory.entry(cr).isEmpty())
                        .forEach(blocking::add);
            }
        }
        return blocking;
    }

    @Override
    public Reply gone(KymaModule key) {
        return Reply.unchanged("KymaNotFound", "Kyma " + key.namespace() + "/" + key.kyma() + " is gone", List.of());
    }

    @Override
    public LifecyclePlan plan(LifecycleViews views) {
        return LifecyclePlanner.plan(views);
    }

    @Override
    public void apply(LifecyclePlan plan) {
        writes.carryOut(plan);
    }

    /** The page's lifecycle rows are the loop's last plans of each module ({@link LifecycleBoard}). */
    @Override
    public String lastPlansArea() {
        return LifecycleBoard.AREA;
    }

    @Override
    public Object lastPlanKey(KymaModule key) {
        return key;
    }

    @Override
    public Object remember(LifecycleViews views, LifecyclePlan plan) {
        return LifecycleRows.planned(views, plan).orElse(null);
    }

    @Override
    public java.util.Map<String, String> facts(KymaModule key) {
        return java.util.Map.of("module", key.module());
    }
}
