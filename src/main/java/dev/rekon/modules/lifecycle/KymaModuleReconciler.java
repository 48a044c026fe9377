package dev.rekon.modules.lifecycle;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import dev.rekon.manifests.plan.WriteResult;
import dev.rekon.modules.lifecycle.plan.ModuleObjects;
import dev.rekon.modules.lifecycle.plan.Resolution;
import dev.rekon.manifests.LiveObject;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway.Read;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.pipeline.Reconciler;

/**
 * The module lifecycle as the one reconcile loop runs it, for one module of one Kyma: reads the Kyma, the
 * module's inventory, its release and the live objects of both, plans with {@link LifecyclePlanner}, and has
 * {@link LifecycleWrites} carry the plan out. The loop keeps what each last attempt read of the cluster
 * ({@link HeldModule}), for the page's plans ({@link #page}), which read nothing.
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

    @Inject
    LastPlans plans;

    @Override
    public ObjectRef subject(KymaModule key) {
        return key.kymaRef();
    }

    /**
     * The Kyma and the release objects from their watches (from the apiserver after a lost race, or while a watch
     * may lag behind what is known); the inventory and the objects, which no watch holds, as a resync pass read
     * them once for all its modules ({@link ModulePass}), else from the apiserver.
     */
    @Override
    public Optional<LifecycleViews> load(KymaModule key, boolean fresh) {
        Read read = fresh ? Read.LIVE : Read.CACHED;
        ModulePass pass = fresh ? null : key.pass();
        key = key.named();
        KymaView kyma = gateway.kyma(key.namespace(), key.kyma(), read).orElse(null);
        DeclaredModule declared = declared(kyma, key);
        Inventory inventory = (pass == null ? gateway.inventory(key) : pass.inventory(key)).orElse(null);
        Resolution resolution = declared != null && declared.managed()
                ? served(releases.resolve(key, declared, read), read) : null;
        Resolution installed = installed(key, inventory, resolution, read);
        Set<ObjectRef> refs = ModuleObjects.read(inventory, resolution, installed);
        List<ObjectRef> blocking = declared == null && inventory != null ? blocking(inventory) : List.of();
        return Optional.of(views(key, kyma, declared, inventory, resolution, live(key, refs, pass), blocking,
                installed));
    }

    /** The objects that exist among {@code refs}: judged by the pass and the last attempt, or read. */
    private Map<String, LiveObject> live(KymaModule key, Set<ObjectRef> refs, ModulePass pass) {
        if (refs.isEmpty()) {
            return Map.of();
        }
        if (pass == null) {
            return gateway.live(key.module(), refs);
        }
        HeldModule last = plans.<HeldModule>of(LIFECYCLE, key).map(LastPlans.Last::remembered)
                .orElse(HeldModule.NONE);
        return pass.live(refs, last, unknown -> gateway.live(key.module(), unknown));
    }

    /**
     * The page's views, with no API call and no registry read: the Kyma and the release objects as their watches
     * hold them, the manifests this replica holds ({@link KymaReleases}: one never read says so), and the
     * inventory and objects as the module's last attempt left them ({@link HeldModule}); a module never attempted on
     * this replica says so.
     */
    Optional<LifecycleViews> held(KymaModule key) {
        KymaView kyma = gateway.kyma(key.namespace(), key.kyma(), Read.HELD).orElse(null);
        DeclaredModule declared = declared(kyma, key);
        Optional<HeldModule> last = plans.<HeldModule>of(LIFECYCLE, key).map(LastPlans.Last::remembered);
        HeldModule h = last.orElse(HeldModule.NONE);
        if (kyma == null && h.inventory() == null) {
            return Optional.empty();
        }
        // Never attempted here, its inventory is unknown: planned, it would say INSTALL whatever is installed.
        Resolution resolution = declared == null || !declared.managed() ? null : last.isEmpty()
                ? new Resolution.Unavailable(Resolution.NOT_READ, key + " was not read yet on this replica (its"
                        + " inventory and objects); the next event or resync pass reads it")
                : served(releases.resolve(key, declared, Read.HELD), Read.HELD);
        Resolution installed = installed(key, h.inventory(), resolution, Read.HELD);
        return Optional.of(views(key, kyma, declared, h.inventory(), resolution, h.live(), h.blocking(), installed));
    }

    private static DeclaredModule declared(KymaView kyma, KymaModule key) {
        return kyma == null || kyma.deleting() ? null : kyma.declared(key.module()).orElse(null);
    }

    private LifecycleViews views(KymaModule key, KymaView kyma, DeclaredModule declared, Inventory inventory,
            Resolution resolution, Map<String, LiveObject> live, List<ObjectRef> blocking, Resolution installed) {
        return new LifecycleViews(key, kyma, declared, inventory, resolution, live, blocking,
                config.namespacePolicy(), trust.policy().window().orElse(null), clock.instant(), installed);
    }

    /**
     * The installed release read again, only when the target may be refused while it runs: the target is
     * unavailable or another version than the inventory's (a converged module costs no second read).
     */
    private Resolution installed(KymaModule key, Inventory inventory, Resolution target, Read read) {
        if (target == null || inventory == null || inventory.version() == null
                || target instanceof Resolution.Found f && f.release().version().equals(inventory.version())) {
            return null;
        }
        return releases.installed(key, inventory, read);
    }

    /**
     * A release that declares an object of a kind the apiserver does not serve, and that none of its own CRDs
     * declares, cannot be installed: known from discovery before anything is written, it is unavailable
     * ({@value ServedKinds#REASON}) and refused whole, the installed release kept; otherwise the install would fail
     * halfway, after the objects sorting before it were written.
     */
    private Resolution served(Resolution resolution, Read read) {
        if (!(resolution instanceof Resolution.Found f)) {
            return resolution;
        }
        List<ObjectNode> objects = new ArrayList<>(f.release().manifest().objects());
        if (f.release().manifest().defaultCr() != null) {
            objects.add(f.release().manifest().defaultCr());
        }
        Set<String> unserved = ServedKinds.unserved(objects.stream().map(ManifestObjects::ref).toList(),
                (apiVersion, kind) -> gateway.serves(apiVersion, kind, read));
        return ServedKinds.firstUnserved(objects, unserved).<Resolution>map(o -> {
            ObjectRef ref = ManifestObjects.ref(o);
            return new Resolution.Unavailable(ServedKinds.REASON, "version " + f.release().version() + " of module "
                    + f.release().manifest().module() + " declares " + ref + " of kind " + ref.kind() + " in "
                    + ref.apiVersion() + ", which the API server does not serve; install its CustomResourceDefinition"
                    + " (or ship it in the module) or fix the manifest; nothing of this version was applied");
        }).orElse(resolution);
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

    /**
     * The uid and resourceVersion each object applied was given, by {@link dev.rekon.manifests.Identity#key}, for
     * what is kept of the plan ({@link #rememberCarriedOut}).
     */
    @Override
    public Object applied(LifecyclePlan plan) {
        return writes.carryOut(plan);
    }

    /** The area under which the loop keeps what each module's last attempt read ({@link HeldModule}). */
    static final String LIFECYCLE = "modules/lifecycle";

    @Override
    public String lastPlansArea() {
        return LIFECYCLE;
    }

    @Override
    public Object lastPlanKey(KymaModule key) {
        return key.named();
    }

    /** The same module twice runs once, as the key that reads live when one does (an event's over a pass's). */
    @Override
    public KymaModule merge(KymaModule pending, KymaModule newer) {
        return !pending.equals(newer) ? null : newer.pass() == null || pending.pass() != null ? newer : pending;
    }

    /** A recheck reads as an event does: the pass it came from is over. */
    @Override
    public KymaModule rescheduled(KymaModule key) {
        return key.named();
    }

    /**
     * A pass's write starts from the views its plan was made from, read under the key's turn moments before
     * (reading them again only repeated the pass's reads); its writes stay guarded, and a lost race reads live.
     */
    @Override
    public boolean writesFromPassViews() {
        return true;
    }

    /** What the attempt read of the cluster, for the page ({@link HeldModule}). */
    @Override
    public Object remember(LifecycleViews views, LifecyclePlan plan) {
        return HeldModule.of(views);
    }

    /**
     * What is kept once the plan is carried out in full: the cluster as the plan left it ({@link HeldModule#after}),
     * each object applied at the uid and resourceVersion its apply answered ({@link #applied}), so that the next
     * pass that lists it unchanged takes it as it is.
     */
    @Override
    @SuppressWarnings("unchecked")
    public Object rememberCarriedOut(Object remembered, LifecyclePlan plan, Object answer) {
        return remembered instanceof HeldModule held ? held.after(plan, answer instanceof Map<?, ?> a
                ? (Map<String, WriteResult.Applied>) a : Map.of()) : null;
    }

    /** The modules whose last attempt on this replica is held, in a namespace (null: all): the page's keys too. */
    java.util.stream.Stream<KymaModule> heldKeys(String namespace) {
        return plans.<HeldModule>of(LIFECYCLE).stream().map(l -> l.remembered().key())
                .filter(k -> namespace == null || namespace.equals(k.namespace()));
    }

    @Override
    public java.util.Map<String, String> facts(KymaModule key) {
        return java.util.Map.of("module", key.module());
    }
}
