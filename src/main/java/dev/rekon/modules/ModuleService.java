package dev.rekon.modules;

import java.time.Clock;
import java.util.List;
import java.util.function.BiFunction;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.Reply;
import dev.rekon.modules.ModuleInput.Disable;
import dev.rekon.modules.ModuleInput.Enable;
import dev.rekon.modules.ModuleInput.Release;
import dev.rekon.modules.ModuleInput.ReleaseMetaChanged;
import dev.rekon.modules.ModuleInput.TemplateChanged;
import dev.rekon.modules.ModuleInput.Withdrawn;
import dev.rekon.pipeline.ApiRefusals;
import dev.rekon.pipeline.ConflictRetry;
import dev.rekon.pipeline.Replies;

/**
 * Runs module updates: finds the releases an event offers ({@link ModuleReleases}), reads the module's
 * Deployments, asks {@link ModuleUpdatePlanner} (or {@link ModuleSwitchPlanner}) for a plan, writes its patches
 * guarded by the resourceVersions it was planned against, and answers with one reply. A write that loses a race
 * is planned again from fresh reads ({@link ConflictRetry}).
 */
@ApplicationScoped
public class ModuleService {

    @Inject
    ModuleGateway gateway;

    @Inject
    ModuleReleases releases;

    @Inject
    ModuleTrust trust;

    @Inject
    Clock clock;

    public Reply handle(ModuleInput input) {
        return ApiRefusals.asReply(List.of(), () -> dispatch(input));
    }

    private Reply dispatch(ModuleInput input) {
        if (input instanceof ReleaseMetaChanged m) {
            return releasesAndWrite(releases.ofReleaseMeta(m));
        }
        if (input instanceof TemplateChanged t) {
            return releasesAndWrite(releases.ofTemplate(t));
        }
        if (input instanceof Release r) {
            return releaseAndWrite(r.release());
        }
        if (input instanceof Enable e) {
            return switchAndWrite(e.module(), ModuleSwitchPlanner::enable);
        }
        if (input instanceof Disable d) {
            return switchAndWrite(d.module(), ModuleSwitchPlanner::disable);
        }
        Withdrawn w = (Withdrawn) input;
        return ModuleReleases.withdrawn(w.kind(), w.namespace(), w.name());
    }

    private Reply releasesAndWrite(List<ModuleReleases.Offer> offers) {
        return Replies.combine(offers.stream().map(o -> o instanceof ModuleReleases.Offer.Release r
                ? releaseAndWrite(r.release()) : ((ModuleReleases.Offer.Nothing) o).reply()).toList());
    }

    /** Applies one release under the policy, to the Deployments of its module that follow its channel. */
    public Reply releaseAndWrite(ModuleRelease release) {
        return ConflictRetry.run(fresh -> {
            ModuleUpdatePlanner.Decision d = ModuleUpdatePlanner.plan(release, gateway.deployments(release.module()),
                    trust.policy(), clock.instant());
            return write(d.plan(), release.module(), d.fromVersion(), d.toVersion());
        });
    }

    private Reply switchAndWrite(String module, BiFunction<String, List<ModuleDeployment>, ModulePlan> planner) {
        return ConflictRetry.run(fresh -> {
            List<ModuleDeployment> installed = gateway.deployments(module);
            String versions = installed.isEmpty() ? null : ModuleUpdatePlanner.runningVersions(installed);
            return write(planner.apply(module, installed), module, versions, null);
        });
    }

    private Reply write(ModulePlan plan, String module, String from, String to) {
        if (plan instanceof ModulePlan.Apply apply) {
            apply.patches().forEach(gateway::patch);
        }
        return ModuleReplies.of(plan, module, from, to);
    }
}
