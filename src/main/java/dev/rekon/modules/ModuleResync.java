package dev.rekon.modules;

import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.ModuleHolds.Hold;
import dev.rekon.modules.ModulePlan.Apply;
import dev.rekon.modules.ModulePlan.DeploymentPatch;
import dev.rekon.modules.ModulePlan.Rejected;
import dev.rekon.pipeline.ConflictRetry;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The modules part of a resync pass: every module Deployment against the current release of the channel it
 * follows (the version its ModuleReleaseMeta offers, described by a ModuleTemplate), under the same policy as
 * the events ({@link ModuleUpdatePlanner}), patched as the events patch. Converged Deployments, suspended ones
 * and ones changed by hand (reported once, see {@link ModuleManualChanges}) get no write. A policy refusal
 * (outside the maintenance window, say) counts as failed with its reason: a later pass applies it once allowed.
 */
@ApplicationScoped
public class ModuleResync implements AreaResync {

    public static final String AREA = "modules";

    @Inject
    Clock clock;

    @Inject
    ModuleTrust trust;

    @Inject
    ModuleGateway gateway;

    @Inject
    ModuleManualChanges manualChanges;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        AreaTally tally = new AreaTally(AREA);
        List<ModuleDeployment> installed;
        ChannelReleases releases;
        try {
            installed = gateway.allModuleDeployments().stream().filter(d -> scope.covers(d.ref().namespace())).toList();
            releases = new ChannelReleases(gateway.list(KymaModules.RELEASE_META, null),
                    gateway.list(KymaModules.TEMPLATE, null));
        } catch (TransientFailureException | KubeErrors.PermanentApiException e) {
            tally.failed(null, "ReadFailed", "could not read the module Deployments and releases: " + e.getMessage());
            return tally.result();
        }
        Map<String, List<ModuleDeployment>> byChannel = new TreeMap<>(installed.stream()
                .collect(Collectors.groupingBy(d -> d.module() + "\n" + d.channel())));
        byChannel.values().forEach(ds -> resyncChannel(ds, releases, scope, tally));
        return tally.result();
    }

    /** The Deployments of one module that follow one channel. */
    private void resyncChannel(List<ModuleDeployment> ds, ChannelReleases releases, ResyncScope scope, AreaTally tally) {
        String module = ds.get(0).module();
        String channel = ds.get(0).channel();
        try {
            Optional<ModuleRelease> release = releases.template(module, channel)
                    .map(t -> KymaModules.release(t, channel, trust.verifier()));
            if (release.isEmpty()) {
                ds.forEach(d -> tally.unchanged());
                return;
            }
            converge(release.get(), ds, scope, tally);
        } catch (InvalidEventException e) {
            ds.forEach(d -> tally.failed(d.ref(), "InvalidRelease", e.getMessage()));
        } catch (TransientFailureException | KubeErrors.PermanentApiException e) {
            ds.forEach(d -> tally.failed(d.ref(), "WriteFailed", e.getMessage()));
        }
    }

    /** Plans and applies; on a write conflict reads the channel's Deployments again and re-plans. */
    private void converge(ModuleRelease release, List<ModuleDeployment> ds, ResyncScope scope, AreaTally tally) {
        Set<ObjectRef> patched = new HashSet<>();
        ConflictRetry.run(fresh -> {
            List<ModuleDeployment> current = !fresh ? ds : gateway.deployments(release.module()).stream()
                    .filter(d -> d.channel().equals(release.channel()) && scope.covers(d.ref().namespace())).toList();
            ModuleUpdatePlanner.Decision decision = ModuleUpdatePlanner.plan(release, current, trust.policy(),
                    clock.instant());
            apply(decision.plan(), scope, patched);
            count(decision, current, patched, tally);
            if (!scope.report()) {
                manualChanges.report(decision.holds());
            }
            return null;
        });
    }

    private void apply(ModulePlan plan, ResyncScope scope, Set<ObjectRef> patched) {
        if (plan instanceof Apply a) {
            for (DeploymentPatch p : a.patches()) {
                if (!scope.report()) {
                    gateway.patch(p);
                }
                patched.add(p.ref());
            }
        }
    }

    private static void count(ModuleUpdatePlanner.Decision decision, List<ModuleDeployment> current,
            Set<ObjectRef> patched, AreaTally tally) {
        ModulePlan plan = decision.plan();
        for (ModuleDeployment d : current) {
            Optional<Hold> hold = decision.holds().stream().filter(h -> h.deployment().ref().equals(d.ref())).findFirst();
            if (patched.contains(d.ref())) {
                tally.changed(d.ref(), plan.reason(), plan.message());
            } else if (hold.isPresent() && !hold.get().changes().isEmpty()) {
                tally.drifted(d.ref(), hold.get().reason(), hold.get().message());
            } else if (hold.isEmpty() && plan instanceof Rejected r) {
                tally.failed(d.ref(), r.reason(), r.message());
            } else {
                tally.unchanged();
            }
        }
    }
}
