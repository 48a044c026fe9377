package dev.rekon.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.rekon.core.SemVer;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModulePlan;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.status.StatusReport.ModuleRow;

/**
 * Decides for each installed module and channel (the rows of {@code GET /modules}) whether the newest release its
 * ModuleReleaseMeta offers would reach it now, by running the release through the same {@link ModuleUpdatePlanner}
 * an event would: refused ({@code HeldBack}, with the policy's reason: downgrade, major step, signature,
 * maintenance window), would apply ({@code Pending}), or nothing to do ({@code UpToDate}).
 */
final class ModuleRows {

    private final ModuleUpdatePlanner.Policy policy;
    private final SignatureVerifier verifier;
    private final Instant now;

    ModuleRows(ModuleUpdatePlanner.Policy policy, SignatureVerifier verifier, Instant now) {
        this.policy = policy;
        this.verifier = verifier;
        this.now = now;
    }

    List<ModuleRow> rows(List<ModuleDeployment> installed, List<ReleaseMetaView> metas,
            List<ModuleTemplateView> templates) {
        Map<String, String> offered = new HashMap<>();
        for (ReleaseMetaView meta : metas) {
            String module = meta.module();
            meta.channels().forEach((channel, version) -> offered.merge(module + "/" + channel, version,
                    ModuleRows::newer));
        }
        Map<String, List<ModuleDeployment>> groups = new TreeMap<>();
        Map<String, List<ModuleDeployment>> byModule = new HashMap<>();
        for (ModuleDeployment d : installed) {
            groups.computeIfAbsent(d.module() + "/" + d.channel(), k -> new ArrayList<>()).add(d);
            byModule.computeIfAbsent(d.module(), k -> new ArrayList<>()).add(d);
        }
        List<ModuleRow> rows = new ArrayList<>();
        groups.forEach((key, ds) -> rows.add(row(ds, byModule.get(ds.get(0).module()), offered.get(key), templates)));
        rows.sort(Comparator.comparing((ModuleRow r) -> !r.problem()));
        return rows;
    }

    private ModuleRow row(List<ModuleDeployment> ds, List<ModuleDeployment> allOfModule, String newest,
            List<ModuleTemplateView> templates) {
        ModuleDeployment first = ds.get(0);
        String running = ModuleUpdatePlanner.runningVersions(ds);
        String[] decided = decide(first.module(), first.channel(), running, newest, allOfModule, templates);
        return new ModuleRow(first.module(), first.channel(), running, ds.stream().allMatch(ModuleDeployment::enabled),
                newest, decided[0], "HeldBack".equals(decided[0]), decided[1], decided[2],
                ds.stream().map(d -> d.ref().namespace() + "/" + d.ref().name()).toList());
    }

    private String[] decide(String module, String channel, String running, String newest,
            List<ModuleDeployment> allOfModule, List<ModuleTemplateView> templates) {
        if (newest == null) {
            return new String[] { "Unknown", "NoReleaseOnChannel", "no ModuleReleaseMeta offers module " + module
                    + " on channel '" + channel + "'" };
        }
        ModuleTemplateView template = templates.stream().filter(t -> module.equals(t.module())
                && newest.equals(t.version())).findFirst().orElse(null);
        if (template == null) {
            return new String[] { newest.equals(running) ? "UpToDate" : "Unknown", "NoModuleTemplate",
                    "no ModuleTemplate describes " + module + " " + newest + ", the newest version on '" + channel + "'" };
        }
        ModulePlan plan;
        try {
            plan = ModuleUpdatePlanner.plan(KymaModules.release(template, channel, verifier), allOfModule, policy, now).plan();
        } catch (RuntimeException unusable) {
            return new String[] { "HeldBack", "InvalidRelease", unusable.getMessage() };
        }
        if (plan instanceof ModulePlan.Rejected r) {
            return new String[] { "HeldBack", r.reason(), r.message() };
        }
        if (plan instanceof ModulePlan.Apply a) {
            return new String[] { "Pending", "ReleaseNotApplied", "release " + newest + " would apply ("
                    + a.reason() + "); the next event of its ModuleReleaseMeta applies it" };
        }
        ModulePlan.NoChange n = (ModulePlan.NoChange) plan;
        return new String[] { "UpToDate", n.reason(), n.message() };
    }

    private static String newer(String a, String b) {
        return SemVer.tryParse(a).flatMap(x -> SemVer.tryParse(b).map(y -> x.compareTo(y) >= 0 ? a : b)).orElse(a);
    }
}
