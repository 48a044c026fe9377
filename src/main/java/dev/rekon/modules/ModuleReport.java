package dev.rekon.modules;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.cluster.watch.SharedWatches;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ChannelReleases;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.modules.status.ModuleRows;
import dev.rekon.modules.status.ModuleSection;
import dev.rekon.modules.status.ModuleSection.ModuleRow;
import dev.rekon.modules.watch.ModulePushIndex;
import dev.rekon.modules.watch.ReleaseFacets;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.status.AreaReport;
import dev.rekon.status.StatusRead;
import dev.rekon.status.StatusReport;

/**
 * The module rows of the status page: for the Deployments of each module on each channel, the key a resync pass
 * makes (the release {@link ChannelReleases} finds for the channel, as the events and the resync find it), planned
 * by the one loop in report mode with {@link ModuleReconciler} from the watch caches, rendered by
 * {@link ModuleRows}. The page's release is the one the next pass applies.
 */
@ApplicationScoped
public class ModuleReport implements AreaReport {

    @Inject
    SharedWatches watches;

    @Inject
    ModulePushIndex modules;

    @Inject
    ReleaseFacets.ReleaseMetas metas;

    @Inject
    ReleaseFacets.Templates templates;

    @Inject
    ModuleTrust trust;

    @Inject
    ReconcileLoop loop;

    @Inject
    ModuleReconciler reconciler;

    /** What the rows are made from, as the watch caches hold it. */
    public record Watched(List<ModuleDeployment> installed, List<ReleaseMetaView> releaseMetas,
            List<ModuleTemplateView> templates) {
    }

    /** A report over the given loop, clock and trust, outside CDI: its plans read nothing but the watched views. */
    public static ModuleReport over(ReconcileLoop loop, Clock clock, ModuleTrust trust) {
        ModuleReport r = new ModuleReport();
        r.loop = loop;
        r.trust = trust;
        r.reconciler = ModuleReconciler.planning(trust, clock);
        return r;
    }

    @Override
    public String area() {
        return ModuleResync.AREA;
    }

    @Override
    public StatusReport addTo(StatusReport report, StatusRead read, String namespace, Instant now) {
        return addTo(report, watched(read, true), namespace);
    }

    /**
     * What the watch caches hold, with this process's own writes they have not delivered yet in place.
     *
     * @param lifecycle whether to keep the Deployments the module lifecycle installed
     */
    public Watched watched(StatusRead read, boolean lifecycle) {
        List<ModuleDeployment> installed = modules.withWrites(read.of(modules.views(), "module Deployments").stream()
                .filter(r -> lifecycle || !r.installed()).map(ModulePushIndex.Running::deployment).toList());
        return new Watched(installed, read.of(watches.of(metas), "ModuleReleaseMetas"),
                read.of(watches.of(templates), "ModuleTemplates"));
    }

    /** The report with a row per module and channel in {@code namespace} (null: all), from the loop's plans. */
    public StatusReport addTo(StatusReport report, Watched w, String namespace) {
        return report.withSection(new ModuleSection(rows(w, namespace)));
    }

    /** A row per module and channel in {@code namespace} (null: all), problems first. */
    public List<ModuleRow> rows(Watched w, String namespace) {
        ChannelReleases releases = new ChannelReleases(w.releaseMetas(), w.templates());
        Map<String, List<ModuleDeployment>> byChannel = new TreeMap<>(w.installed().stream()
                .filter(d -> namespace == null || namespace.equals(d.ref().namespace()))
                .collect(Collectors.groupingBy(d -> d.module() + "\n" + d.channel())));
        List<ModuleRow> rows = new ArrayList<>();
        byChannel.values().forEach(ds -> rows.add(row(ds, releases)));
        rows.sort(ModuleRows.ORDER);
        return rows;
    }

    private ModuleRow row(List<ModuleDeployment> ds, ChannelReleases releases) {
        String module = ds.get(0).module();
        String channel = ds.get(0).channel();
        String offered = releases.offered(module, channel);
        var template = releases.template(module, channel);
        if (template.isEmpty()) {
            return ModuleRows.noRelease(ds, offered);
        }
        ModuleRelease release;
        try {
            release = KymaModules.release(template.get(), channel, trust.verifier());
        } catch (RuntimeException unusable) {
            return ModuleRows.row(ds, offered, "HeldBack", "InvalidRelease", unusable.getMessage());
        }
        ModuleKey key = new ModuleKey.Release(release, ds, d -> d.channel().equals(channel));
        return loop.plan(reconciler, key).map(step -> ModuleRows.of(ds, offered, step.plan()))
                .orElseGet(() -> ModuleRows.noRelease(ds, offered));
    }
}
