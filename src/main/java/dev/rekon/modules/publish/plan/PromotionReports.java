package dev.rekon.modules.publish.plan;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.rekon.core.SemVer;

/** Makes the {@link ModuleReport} of a promotion plan from its views and the states it decided (pure). */
final class PromotionReports {

    private PromotionReports() {
    }

    static ModuleReport report(SoakViews v, List<ChannelPromotion> states) {
        Map<String, String> channels = v.meta().view().channels();
        List<ModuleReport.VersionRow> rows = v.versions().stream()
                .sorted(Comparator.comparing((SoakViews.Version x) -> SemVer.tryParse(x.version()).orElse(null),
                        Comparator.nullsFirst(Comparator.naturalOrder())))
                .map(x -> new ModuleReport.VersionRow(x.version(), x.template().view().namespace() + "/"
                        + x.template().view().name(), x.signature() == null ? "NotChecked" : x.signature().reason(),
                        channels.entrySet().stream().filter(e -> v.version(e.getValue()).orElse(null) == x)
                                .map(Map.Entry::getKey).toList(),
                        v.kymas().stream().filter(k -> x.version().equals(k.version())).map(k -> k.namespace() + "/"
                                + k.name()).toList()))
                .toList();
        return new ModuleReport(v.namespace(), v.module(), v.meta().ocmComponentName(), channels, rows, v.kymas(),
                states);
    }
}
