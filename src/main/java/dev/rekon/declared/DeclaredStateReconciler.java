package dev.rekon.declared;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.ForbiddenException;
import dev.rekon.core.RekonConfig;
import dev.rekon.core.Reply;
import dev.rekon.declared.apply.DeclaredGateway;
import dev.rekon.declared.apply.DeclaredWrites;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DeclaredPlan;
import dev.rekon.declared.plan.DeclaredPlanner;
import dev.rekon.declared.plan.DeclaredViews;
import dev.rekon.declared.plan.DesiredObjects;
import dev.rekon.declared.plan.Scanned;
import dev.rekon.declared.plan.SourceState;
import dev.rekon.declared.watch.DeclaredStates;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.apply.Impersonation;
import dev.rekon.manifests.apply.ManifestCluster;
import dev.rekon.manifests.plan.ServedKinds;
import dev.rekon.pipeline.LastPlans;
import dev.rekon.pipeline.Reconciler;
import dev.rekon.pipeline.ReportOnly;
import dev.rekon.resync.FannedOut;
import dev.rekon.web.OutgoingEvent;

/**
 * A DeclaredState as the one reconcile loop runs it: reads the DeclaredState (from its watch; from the apiserver
 * after a lost race, or when the watch may lag behind what is known), its branch ({@link BranchReader}: the tip
 * once per input, carried by the key),
 * the live objects its revision and inventory name (and, for a scan, everything in its namespaces), plans with
 * {@link DeclaredPlanner} (pure), and has {@link DeclaredWrites} carry the plan out. The loop keeps what each last
 * attempt read of the cluster ({@link HeldViews}), for the page's plans ({@link #page}), which read nothing.
 */
@ApplicationScoped
public class DeclaredStateReconciler implements Reconciler<DeclaredKey, DeclaredViews, DeclaredPlan>,
        FannedOut<DeclaredKey> {

    @Inject
    DeclaredGateway gateway;

    @Inject
    BranchReader branches;

    @Inject
    DeclaredWrites writes;

    @Inject
    RekonConfig config;

    @Inject
    Clock clock;

    @Inject
    DeclaredStates states;

    @Inject
    LastPlans plans;

    @ConfigProperty(name = "rekon.declared.cross-namespace", defaultValue = "false")
    boolean crossNamespace;

    /** The DeclaredState's manual reconcile event ({@link DeclaredStateFunctions#reconcileEvent}). */
    @Override
    public OutgoingEvent reconcileEvent(DeclaredKey key) {
        return DeclaredStateFunctions.reconcileEvent(key.namespace(), key.name());
    }

    @Override
    public ObjectRef subject(DeclaredKey key) {
        return key.ref();
    }

    /**
     * The DeclaredState alone, whatever the key carries (an orphan scan, a pass's tips): its event, a push to its
     * branch and the resync pass never run at once, so that no lock of the area's own is needed.
     */
    @Override
    public Object identity(DeclaredKey key) {
        return key.ref();
    }

    /**
     * Two inputs (two pushes, an event and a push) each run, one after the other, so each answers what its own run
     * did: the one that applies a tip says so, the next finds it applied. Only the same input submitted again (one
     * {@link TipMemo}) runs once.
     */
    @Override
    public DeclaredKey merge(DeclaredKey pending, DeclaredKey newer) {
        return pending.tips() == newer.tips() && pending.equals(newer) ? newer : null;
    }

    /**
     * A rollout's recheck plans from the tip the last input listed (no git read: it waits on the cluster, not the
     * branch; a push brings a new tip itself), without an orphan scan.
     */
    @Override
    public DeclaredKey rescheduled(DeclaredKey key) {
        return new DeclaredKey(key.namespace(), key.name(), false, TipMemo.lastKnown());
    }

    /**
     * A pass's write starts from the views its plan was made from: they were read under the key's turn moments
     * before, the live objects from the apiserver itself, and reading them again doubled a pass's reads of them.
     */
    @Override
    public boolean writesFromPassViews() {
        return true;
    }

    @Override
    public Optional<DeclaredViews> load(DeclaredKey key, boolean fresh) {
        if (key.tips().holds()) {
            return held(key);
        }
        DeclaredStateView state = (fresh ? Optional.<DeclaredStateView>empty()
                : states.cached(key.namespace(), key.name())).or(() -> live(key)).orElse(null);
        if (state == null || state.deleting() && !state.finalized()) {
            return Optional.empty();
        }
        SourceState source = state.deleting() ? new SourceState.Deleting() : branches.read(state, key.tips());
        Set<String> clusterKinds = served(key.tips()).cluster();
        Set<ObjectRef> refs = new LinkedHashSet<>(state.inventory());
        Set<String> unserved = new HashSet<>();
        if (source instanceof SourceState.Read r && !state.namespaces().isEmpty()) {
            List<ObjectRef> declared = DesiredObjects.of(r.documents(), state.namespaces().get(0), key.owner(),
                    clusterKinds).stream().map(DesiredObjects.Desired::ref).toList();
            refs.addAll(declared);
            unserved.addAll(ServedKinds.unserved(declared, gateway::serves));
        }
        ManifestCluster cluster = gateway.objects(state);
        Set<String> recorded = new HashSet<>();
        state.inventory().forEach(r -> recorded.add(Identity.key(r)));
        Map<String, LiveObject> live = refs.isEmpty() ? Map.of() : cluster.live(key.owner(), refs, recorded);
        List<Scanned> scanned = null;
        Set<String> protectedRefs = Set.of();
        if (key.scanOrphans() && source instanceof SourceState.Read) {
            List<String> namespaces = state.namespaces().stream().filter(config.namespacePolicy()::allows).toList();
            scanned = scan(key.tips(), state, cluster, namespaces);
            protectedRefs = new HashSet<>();
            for (String ns : namespaces) {
                for (DeclaredStateView other : states.all(ns)) {
                    protectedRefs.addAll(named(other));
                }
            }
        }
        return Optional.of(new DeclaredViews(key, state, source, live, clusterKinds, unserved, scanned, protectedRefs,
                config.namespacePolicy(), crossNamespace, clock.instant()));
    }

    /**
     * The page's views, with no API call and no git read: the DeclaredState as its watch holds it, the tip its last
     * input listed, and the cluster as its last attempt left it ({@link HeldViews}); no orphan scan (the orphans
     * recorded stay). Before any attempt of this replica, its tip is unchecked.
     */
    private Optional<DeclaredViews> held(DeclaredKey key) {
        DeclaredStateView state = states.watched(key.namespace(), key.name()).orElse(null);
        if (state == null || state.deleting() && !state.finalized()) {
            return Optional.empty();
        }
        Optional<HeldViews> held = plans.<HeldViews>of(DeclaredResync.AREA, key.ref()).map(HeldViews::of);
        SourceState source = state.deleting() ? new SourceState.Deleting()
                : held.isEmpty() && !state.suspend() ? new SourceState.Unchecked() : branches.read(state, key.tips());
        HeldViews h = held.orElse(new HeldViews(Map.of(), Set.of(), Set.of()));
        return Optional.of(new DeclaredViews(key, state, source, h.live(), h.clusterKinds(), h.unserved(), null,
                Set.of(), config.namespacePolicy(), crossNamespace, clock.instant()));
    }

    /**
     * This reconciler as the page plans with it ({@link ReportOnly}): its keys ({@link TipMemo#held}) read nothing.
     */
    public Reconciler<DeclaredKey, DeclaredViews, DeclaredPlan> page() {
        return new ReportOnly<>(this, key -> load(key, false));
    }

    /** The kinds the cluster serves, as the input's first reader found them: one discovery read per input. */
    private Served served(TipMemo memo) {
        return memo.kinds(() -> new Served(gateway.clusterKinds(), gateway.namespacedKinds(null)));
    }

    /** The cluster-scoped kinds (as {@code group/Kind}) and the namespaced ones an orphan scan lists. */
    private record Served(Set<String> cluster, List<ObjectRef> namespaced) {
    }

    /** The DeclaredState as the apiserver holds it now; the watch then answers for it once it holds as much. */
    private Optional<DeclaredStateView> live(DeclaredKey key) {
        Optional<DeclaredStateView> read = gateway.state(key.namespace(), key.name());
        read.ifPresent(s -> states.seen(s.namespace(), s.name(), s.resourceVersion()));
        return read;
    }

    /**
     * Every object of every namespaced kind in {@code namespaces}, metadata only, each list shared by the input's
     * DeclaredStates (as Argo CD's and Flux's caches share theirs): as Rekon itself, one list of each kind across
     * every namespace for the whole pass; as a ServiceAccount, one list of each kind per namespace for all that
     * share it, since what it may list is its own.
     */
    private List<Scanned> scan(TipMemo memo, DeclaredStateView state, ManifestCluster cluster, List<String> namespaces) {
        String identity = state.serviceAccountName() == null ? null
                : Impersonation.username(state.namespace(), state.serviceAccountName());
        Set<String> wanted = Set.copyOf(namespaces);
        List<ObjectRef> kinds = served(memo).namespaced();
        Map<ObjectRef, List<Scanned>> everywhere = identity == null && config.namespacePolicy().everyNamespace()
                ? memo.scan(null, kinds, kind -> listable(cluster, kind)) : Map.of();
        List<ObjectRef> byNamespace = new ArrayList<>();
        for (ObjectRef kind : kinds) {
            List<Scanned> listed = everywhere.get(kind);
            if (listed == null || listed == REFUSED) {
                namespaces.forEach(ns -> byNamespace.add(new ObjectRef(kind.apiVersion(), kind.kind(), ns, "")));
            }
        }
        Map<ObjectRef, List<Scanned>> inNamespaces = memo.scan(identity, byNamespace, kind -> listable(cluster, kind));
        List<Scanned> out = new ArrayList<>();
        for (ObjectRef kind : kinds) {
            List<Scanned> listed = everywhere.get(kind);
            if (listed != null && listed != REFUSED) {
                listed.stream().filter(o -> wanted.contains(o.ref().namespace())).forEach(out::add);
                continue;
            }
            for (String ns : namespaces) {
                List<Scanned> here = inNamespaces.get(new ObjectRef(kind.apiVersion(), kind.kind(), ns, ""));
                if (here != REFUSED) {
                    out.addAll(here);
                }
            }
        }
        return out;
    }

    /** What a list the identity may not make answers: nothing of that kind is listed there (see {@link #listable}). */
    private static final List<Scanned> REFUSED = java.util.Collections.unmodifiableList(new ArrayList<>());

    /**
     * Every object of a kind in a namespace, as the DeclaredState's identity may see them; none of a kind it may not
     * list ({@link #REFUSED}: Rekon's own list across namespaces then lists namespace by namespace). A ServiceAccount granted what its manifests need cannot list Endpoints or Secrets, and could delete no
     * orphan of them either; without this one such kind refused the whole scan, so a resync never put anything back.
     */
    private static List<Scanned> listable(ManifestCluster cluster, ObjectRef kind) {
        try {
            // A pass keeps each list until its last DeclaredState is planned: identities, a fraction of the trees.
            List<Scanned> out = new ArrayList<>();
            cluster.metadata(kind, o -> out.add(Scanned.of(o)));
            return out;
        } catch (ForbiddenException e) {
            return REFUSED;
        }
    }

    /** A DeclaredState and the credentials it names: never orphans, never deleted by any DeclaredState. */
    private static List<String> named(DeclaredStateView s) {
        List<String> out = new ArrayList<>();
        out.add(Identity.key(new DeclaredKey(s.namespace(), s.name(), false).ref()));
        if (s.secretName() != null) {
            out.add(Identity.key(new ObjectRef("v1", "Secret", s.namespace(), s.secretName())));
        }
        if (s.serviceAccountName() != null) {
            out.add(Identity.key(new ObjectRef("v1", "ServiceAccount", s.namespace(), s.serviceAccountName())));
        }
        return out;
    }

    @Override
    public Reply gone(DeclaredKey key) {
        return Reply.unchanged("DeclaredStateNotFound", "DeclaredState " + key.namespace() + "/" + key.name()
                + " is gone", List.of());
    }

    @Override
    public DeclaredPlan plan(DeclaredViews views) {
        return DeclaredPlanner.plan(views);
    }

    @Override
    public void apply(DeclaredPlan plan) {
        String written = writes.carryOut(plan);
        if (written != null) {
            states.seen(plan.key().namespace(), plan.key().name(), written);
        }
    }

    @Override
    public String lastPlansArea() {
        return DeclaredResync.AREA;
    }

    /** What the attempt read of the cluster, for the page ({@link HeldViews}); nothing of one being let go. */
    @Override
    public Object remember(DeclaredViews views, DeclaredPlan plan) {
        return plan.action() == DeclaredPlan.Action.FINALIZE ? null : HeldViews.of(views);
    }

    /**
     * The objects as the plan, written in full, left them: kept in place of the plan, whose bodies, report and
     * status the page does not read (it plans again from these), so a DeclaredState costs its objects, not its last
     * plan too.
     */
    @Override
    public Object rememberCarriedOut(Object remembered, DeclaredPlan plan, Object answer) {
        return remembered instanceof HeldViews held ? held.after(plan) : null;
    }
}
