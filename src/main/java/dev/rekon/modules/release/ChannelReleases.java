package dev.rekon.modules.release;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.rekon.core.SemVer;

/**
 * Which ModuleTemplate is the current release of a module on a channel: the version the ModuleReleaseMetas
 * offer on that channel (the highest, should several offer one), described by a ModuleTemplate in the
 * ModuleReleaseMeta's namespace. Pure: the objects come in as read.
 */
public final class ChannelReleases {

    private final Map<String, Offer> offers = new HashMap<>();
    private final List<ModuleTemplateView> templates;

    /** The version a ModuleReleaseMeta offers on one channel, and where it lives. */
    record Offer(String namespace, String version) {
    }

    public ChannelReleases(List<ReleaseMetaView> releaseMetas, List<ModuleTemplateView> templates) {
        this.templates = List.copyOf(templates);
        for (ReleaseMetaView meta : releaseMetas) {
            String module = meta.module();
            String namespace = meta.namespace();
            meta.channels().forEach((channel, version) -> offers.merge(module + "/" + channel,
                    new Offer(namespace, version), ChannelReleases::newer));
        }
    }

    /** The version offered for the module on the channel, or null. */
    public String offered(String module, String channel) {
        Offer o = offers.get(module + "/" + channel);
        return o == null ? null : o.version();
    }

    /** The ModuleTemplate of the offered version, if one describes it. */
    public Optional<ModuleTemplateView> template(String module, String channel) {
        Offer o = offers.get(module + "/" + channel);
        return o == null ? Optional.empty() : find(templates, o.namespace(), module, o.version());
    }

    /** The template in {@code namespace} (any, when null) describing that version of the module. */
    public static Optional<ModuleTemplateView> find(List<ModuleTemplateView> templates, String namespace, String module,
            String version) {
        Optional<SemVer> wanted = SemVer.tryParse(version);
        return templates.stream()
                .filter(t -> namespace == null || namespace.equals(t.namespace()))
                .filter(t -> module.equals(t.module()))
                .filter(t -> SemVer.tryParse(t.version())
                        .flatMap(v -> wanted.map(w -> v.compareTo(w) == 0)).orElse(false))
                .findFirst();
    }

    private static Offer newer(Offer a, Offer b) {
        return SemVer.tryParse(a.version()).flatMap(x -> SemVer.tryParse(b.version())
                .map(y -> x.compareTo(y) >= 0 ? a : b)).orElse(a);
    }
}
