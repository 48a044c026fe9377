package dev.rekon.modules.lifecycle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway.Read;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.modules.lifecycle.intent.KymaView;
import dev.rekon.modules.lifecycle.plan.LifecyclePlan;
import dev.rekon.modules.lifecycle.plan.LifecycleViews;
import dev.rekon.modules.lifecycle.status.LifecycleRow;
import dev.rekon.modules.lifecycle.status.LifecycleRows;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.pipeline.ReportOnly;

/**
 * Finds which modules of which Kymas an input concerns and runs each through the one {@link ReconcileLoop}
 * with {@link KymaModuleReconciler}: every module a Kyma lists or still has an inventory for (a change of the
 * Kyma, its deletion, a manual event), or every Kyma in a namespace that lists a module or has it installed (a
 * new release on a followed channel). The namespace is checked against {@code rekon.namespaces} before any read.
 */
@ApplicationScoped
public class KymaModuleService {

    @Inject
    LifecycleGateway gateway;

    @Inject
    KymaModuleReconciler reconciler;

    @Inject
    ReconcileLoop loop;

    /** A Kyma was created, changed or deleted (or a person asks for it): each of its modules in line. */
    public Reply kymaChanged(String namespace, String name) {
        Optional<Reply> refused = loop.refusal(namespace, new KymaModule(namespace, name, null).kymaRef());
        if (refused.isPresent()) {
            return refused.get();
        }
        Set<String> modules = new LinkedHashSet<>();
        gateway.kyma(namespace, name).ifPresent(k -> k.modules().forEach(m -> modules.add(m.name())));
        modules.addAll(gateway.inventoried(namespace, name));
        return loop.reconcileAll(reconciler, modules.stream().map(m -> new KymaModule(namespace, name, m)).toList(),
                Reply.unchanged("NoModules", "Kyma " + namespace + "/" + name + " lists no module and has none installed",
                        List.of()));
    }

    /**
     * The same for an event about {@code changed}, at {@code resourceVersion} (null: a Reference-mode event, which
     * names none): until the watch holds that version, the loads read the release objects from the apiserver.
     */
    public Reply releaseChanged(String namespace, String module, dev.rekon.core.ObjectRef changed,
            String resourceVersion) {
        if (loop.refusal(namespace, null).isEmpty()) {
            gateway.seen(changed, resourceVersion);
        }
        return releaseChanged(namespace, module);
    }

    /** A module's ModuleReleaseMeta or ModuleTemplate changed: every Kyma of that namespace that has the module. */
    public Reply releaseChanged(String namespace, String module) {
        Optional<Reply> refused = loop.refusal(namespace, null);
        if (refused.isPresent()) {
            return refused.get();
        }
        List<KymaModule> keys = gateway.kymas(namespace).stream().filter(k -> has(k, module))
                .map(k -> new KymaModule(k.namespace(), k.name(), module)).toList();
        return loop.reconcileAll(reconciler, keys, Reply.unchanged("NoKymaListsModule", "no Kyma in namespace "
                + namespace + " lists module " + module, List.of()));
    }

    private boolean has(KymaView kyma, String module) {
        return kyma.declared(module).filter(DeclaredModule::managed).isPresent()
                || gateway.inventoried(kyma.namespace(), kyma.name()).contains(module);
    }

    /**
     * Every module of every Kyma in scope, as the resync pass asks, each key carrying the pass ({@link ModulePass}):
     * the inventories listed once for all of them, and the objects of each kind.
     */
    public List<KymaModule> everyModule(String namespace) {
        ModulePass pass = new ModulePass(gateway, namespace);
        Set<KymaModule> keys = new LinkedHashSet<>();
        for (KymaView k : gateway.kymas(namespace)) {
            k.modules().forEach(m -> keys.add(new KymaModule(k.namespace(), k.name(), m.name(), pass)));
            pass.inventoried(k.namespace(), k.name())
                    .forEach(m -> keys.add(new KymaModule(k.namespace(), k.name(), m, pass)));
        }
        return List.copyOf(keys);
    }

    /**
     * The page's rows in a namespace (null: all): every module of every Kyma its watch holds, and every module whose
     * last attempt on this replica is held (one no longer listed, a Kyma gone), each planned now by the loop in
     * report mode ({@link KymaModuleReconciler#held}, {@link ReportOnly}): no API call, no registry read. Problem rows first.
     */
    public List<LifecycleRow> rows(String namespace) {
        // The views each plan was made from, for its row.
        Map<KymaModule, LifecycleViews> loaded = new HashMap<>();
        ReportOnly<KymaModule, LifecycleViews, LifecyclePlan> page = new ReportOnly<>(reconciler, key -> {
            Optional<LifecycleViews> views = reconciler.held(key);
            views.ifPresent(v -> loaded.put(key, v));
            return views;
        });
        Set<KymaModule> keys = new LinkedHashSet<>();
        for (KymaView k : gateway.kymas(namespace, Read.HELD)) {
            k.modules().forEach(m -> keys.add(new KymaModule(k.namespace(), k.name(), m.name())));
        }
        reconciler.heldKeys(namespace).forEach(keys::add);
        List<LifecycleRow> rows = new ArrayList<>();
        for (KymaModule key : keys) {
            loop.plan(page, key).flatMap(p -> LifecycleRows.planned(loaded.get(key), p)).ifPresent(rows::add);
        }
        rows.sort(LifecycleRows.ORDER);
        return rows;
    }

    public Reply reconcile(KymaModule key) {
        return loop.reconcile(reconciler, key);
    }

    public Reply report(KymaModule key) {
        return loop.report(reconciler, key);
    }
}
