package dev.rekon.modules.publish.plan;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.rekon.modules.release.ChannelReleases;
import dev.rekon.modules.release.MaintenanceWindow;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Everything the promotions of one published module are planned from.
 *
 * @param meta     the module's ModuleReleaseMeta, with its annotations (what soaks since when)
 * @param versions the module's ModuleTemplates, each with how its descriptor's signature checks now
 * @param kymas    the Kymas of the namespace that list the module, with what their status says it runs
 * @param now      the time of this decision, from the injected clock
 */
public record SoakViews(String namespace, String module, Policy policy, PublishedMeta meta, List<Version> versions,
        List<KymaFollower> kymas, Instant now) {

    /** The rules, whether signatures are required, and the maintenance window (empty: always open). */
    public record Policy(List<PromotionRule> rules, boolean requireSignature, Optional<MaintenanceWindow> window) {

        public Policy {
            rules = List.copyOf(rules);
        }
    }

    /** One published version: its ModuleTemplate and its signature as checked now. */
    public record Version(PublishedTemplate template, SignatureCheck signature) {

        public String version() {
            return template.view().version();
        }
    }

    public SoakViews {
        versions = List.copyOf(versions);
        kymas = List.copyOf(kymas);
    }

    /** The published version a channel's version names, matched as the lifecycle matches releases. */
    public Optional<Version> version(String version) {
        if (version == null) {
            return Optional.empty();
        }
        return ChannelReleases.find(versions.stream().map(v -> v.template().view()).toList(), namespace, module,
                version).flatMap(t -> versions.stream().filter(v -> v.template().view() == t).findFirst());
    }
}
