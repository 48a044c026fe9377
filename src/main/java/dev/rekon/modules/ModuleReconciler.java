package dev.rekon.modules;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.modules.apply.ModuleGateway;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModulePlan;
import dev.rekon.modules.plan.ModuleReplies;
import dev.rekon.modules.plan.ModuleSwitchPlanner;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.pipeline.Reconciler;

/**
 * Module image swaps as the one reconcile loop runs them, for one module: reads its Deployments (again after a
 * lost race), plans with the pure {@link ModuleUpdatePlanner} (a release) or {@link ModuleSwitchPlanner} (enable,
 * disable), writes the patches, each guarded by the resourceVersion it was planned from, and then reports the
 * Deployments changed by hand ({@link ModuleManualChanges}).
 */
@ApplicationScoped
public class ModuleReconciler implements Reconciler<ModuleKey, ModuleReconciler.Views, ModuleStep> {

    /** The views of one attempt: the key and the module's Deployments it concerns. */
    public record Views(ModuleKey key, List<ModuleDeployment> deployments) {
    }

    @Inject
    ModuleGateway gateway;

    @Inject
    ModuleTrust trust;

    @Inject
    Clock clock;

    @Inject
    ModuleManualChanges manualChanges;

    /** A reconciler that plans under the given trust and clock, outside CDI (its gateway left to the caller). */
    static ModuleReconciler planning(ModuleTrust trust, Clock clock) {
        ModuleReconciler r = new ModuleReconciler();
        r.trust = trust;
        r.clock = clock;
        return r;
    }

    @Override
    public boolean acrossNamespaces() {
        return true;
    }

    @Override
    public ObjectRef subject(ModuleKey key) {
        return null;
    }

    @Override
    public Optional<Views> load(ModuleKey key, boolean fresh) {
        if (key instanceof ModuleKey.Release r) {
            List<ModuleDeployment> ds = !fresh && r.known() != null ? r.known()
                    : gateway.deployments(r.module(), fresh).stream().filter(r.within()).toList();
            return Optional.of(new Views(key, ds));
        }
        return Optional.of(new Views(key, gateway.deployments(key.module(), fresh)));
    }

    @Override
    public Reply gone(ModuleKey key) {
        return ModuleReplies.of(ModuleUpdatePlanner.notInstalled(key.module()), key.module(), null, null);
    }

    @Override
    public ModuleStep plan(Views views) {
        String module = views.key().module();
        List<ModuleDeployment> ds = views.deployments();
        if (views.key() instanceof ModuleKey.Release r) {
            ModuleUpdatePlanner.Decision d = ModuleUpdatePlanner.plan(r.release(), ds, trust.policy(), clock.instant());
            return new ModuleStep(d.plan(), ds, d.holds(),
                    ModuleReplies.of(d.plan(), module, d.fromVersion(), d.toVersion()));
        }
        boolean enable = ((ModuleKey.Switch) views.key()).enable();
        ModulePlan plan = enable ? ModuleSwitchPlanner.enable(module, ds) : ModuleSwitchPlanner.disable(module, ds);
        String running = ds.isEmpty() ? null : ModuleUpdatePlanner.runningVersions(ds);
        return new ModuleStep(plan, ds, List.of(), ModuleReplies.of(plan, module, running, null));
    }

    @Override
    public void apply(ModuleStep step) {
        if (step.plan() instanceof ModulePlan.Apply apply) {
            apply.patches().forEach(gateway::patch);
        }
        manualChanges.report(step.holds());
    }

    @Override
    public Map<String, String> facts(ModuleKey key) {
        return key instanceof ModuleKey.Release r
                ? Map.of("module", key.module(), "toVersion", r.release().version().toString())
                : Map.of("module", key.module());
    }
}
