package dev.rekon.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.apply.ModuleGateway;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModuleHolds.Hold;
import dev.rekon.modules.plan.ModulePlan.Apply;
import dev.rekon.modules.plan.ModulePlan.DeploymentPatch;
import dev.rekon.modules.plan.ModulePlan.Rejected;
import dev.rekon.modules.plan.ModulePlan;
import dev.rekon.modules.release.ChannelReleases;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.resync.AreaPass;
import dev.rekon.resync.AreaResult;
import dev.rekon.resync.AreaResync;
import dev.rekon.resync.AreaTally;
import dev.rekon.resync.ResyncScope;

/**
 * The modules part of a resync pass: every module Deployment against the current release of the channel it
 * follows (the version its ModuleReleaseMeta offers, described by a ModuleTemplate), through the same loop and
 * {@link ModuleReconciler} as the events, one module and channel a key, in the one shape of every area
 * ({@link AreaPass}), each Deployment counted once. Converged Deployments, suspended ones
 * and ones changed by hand (reported once, see {@link ModuleManualChanges}) get no write. A policy refusal
 * (outside the maintenance window, say) counts as failed with its reason: a later pass applies it once allowed.
 * A cluster without Kyma's release kinds skips the area.
 */
@ApplicationScoped
public class ModuleResync implements AreaResync {

    public static final String AREA = "modules";

    @Inject
    ModuleTrust trust;

    @Inject
    ModuleGateway gateway;

    @Inject
    ReconcileLoop loop;

    @Inject
    ModuleReconciler modules;

    @Inject
    InstalledKinds kinds;

    @Override
    public String area() {
        return AREA;
    }

    @Override
    public AreaResult resync(ResyncScope scope) {
        Optional<String> missing = kinds.notInstalled("updating modules to the releases Kyma offers",
                InstalledKinds.KYMA_KINDS);
        if (missing.isPresent()) {
            return AreaResult.skipped(AREA, missing.get());
        }
        AreaTally tally = new AreaTally(AREA);
        Optional<List<ModuleDeployment>> listed = AreaPass.listed(tally, "ReadFailed",
                "the module Deployments and releases",
                () -> gateway.allModuleDeployments().stream().filter(d -> scope.covers(d.ref().namespace())).toList());
        Optional<ChannelReleases> offered = listed.flatMap(l -> AreaPass.listed(tally, "ReadFailed",
                "the module Deployments and releases", () -> new ChannelReleases(
                        gateway.list(KymaKind.RELEASE_META, null), gateway.list(KymaKind.TEMPLATE, null))));
        if (offered.isEmpty()) {
            return tally.result();
        }
        List<ModuleDeployment> installed = listed.get();
        ChannelReleases releases = offered.get();
        Map<String, List<ModuleDeployment>> byChannel = new TreeMap<>(installed.stream()
                .collect(Collectors.groupingBy(d -> d.module() + "\n" + d.channel())));
        List<ModuleKey.Release> keys = new ArrayList<>();
        for (List<ModuleDeployment> ds : byChannel.values()) {
            key(ds, releases, scope, tally).ifPresent(keys::add);
        }
        AreaPass.run(loop, modules, keys, scope, key -> new DeploymentCounter(key.known(), tally));
        return tally.result();
    }

    /**
     * The key of the Deployments of one module that follow one channel: the channel's current release; none when
     * the channel offers none (they are unchanged) or its template is not a valid release (they failed).
     */
    private Optional<ModuleKey.Release> key(List<ModuleDeployment> ds, ChannelReleases releases, ResyncScope scope,
            AreaTally tally) {
        String module = ds.get(0).module();
        String channel = ds.get(0).channel();
        try {
            Optional<ModuleRelease> release = releases.template(module, channel)
                    .map(t -> KymaModules.release(t, channel, trust.verifier()));
            if (release.isEmpty()) {
                ds.forEach(d -> tally.unchanged());
            }
            return release.map(r -> new ModuleKey.Release(r, ds,
                    d -> d.channel().equals(channel) && scope.covers(d.ref().namespace())));
        } catch (InvalidEventException e) {
            // A resync has no event to reject: an unreadable release is a failed row of each Deployment it concerns.
            ds.forEach(d -> tally.failed(d.ref(), "InvalidRelease", e.getMessage()));
            return Optional.empty();
        }
    }

    /**
     * Counts each Deployment of a key once, by the step planned for it: patched is a change, held with a manual
     * change drifted, refused by the plan failed, else unchanged; a refused write or a failure fails them all.
     */
    private record DeploymentCounter(List<ModuleDeployment> deployments, AreaTally tally) implements AreaPass.Counter {

        @Override
        public void count(ObjectRef object, Reply reply, boolean writes) {
            deployments.forEach(d -> tally.failed(d.ref(), reply.reason(), reply.message()));
        }

        @Override
        public void count(ObjectRef object, ReconcileLoop.Passed passed) {
            if (passed.planned() instanceof ModuleStep step && (passed.reply().outcome() != Outcome.REJECTED
                    || step.plan() instanceof Rejected)) {
                count(step);
            } else {
                count(object, passed.reply(), passed.writes());
            }
        }

        @Override
        public void failed(ObjectRef object, String reason, String message) {
            deployments.forEach(d -> tally.failed(d.ref(), "WriteFailed", message));
        }

        private void count(ModuleStep step) {
            ModulePlan plan = step.plan();
            Set<ObjectRef> patched = plan instanceof Apply a
                    ? a.patches().stream().map(DeploymentPatch::ref).collect(Collectors.toSet()) : Set.of();
            for (ModuleDeployment d : step.deployments()) {
                Optional<Hold> hold = step.holds().stream().filter(h -> h.deployment().ref().equals(d.ref())).findFirst();
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
}
