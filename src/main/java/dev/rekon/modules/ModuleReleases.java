package dev.rekon.modules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.Reply;
import dev.rekon.core.SemVer;
import dev.rekon.modules.ModuleInput.ReleaseMetaChanged;
import dev.rekon.modules.ModuleInput.TemplateChanged;
import dev.rekon.modules.apply.ModuleGateway;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.plan.ModulePlan.NoChange;
import dev.rekon.modules.plan.ModulePlan;
import dev.rekon.modules.plan.ModuleReplies;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.modules.release.ChannelReleases;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.KymaModules;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;

/**
 * Reads which releases a changed ModuleReleaseMeta or ModuleTemplate offers: one per channel the module's
 * Deployments follow for which the meta names a version and a ModuleTemplate describes it. Where none applies,
 * the answer says why ({@code TemplateNotFound}, {@code ChannelNotOffered}, {@code NotReleasedOnAnyChannel}).
 */
@ApplicationScoped
public class ModuleReleases {

    /** What an event offers: releases to apply, or the reply saying why none applies. */
    public sealed interface Offer {
        record Release(ModuleRelease release) implements Offer {
        }

        record Nothing(Reply reply) implements Offer {
        }
    }

    @Inject
    ModuleGateway gateway;

    @Inject
    ModuleTrust trust;

    public List<Offer> ofReleaseMeta(ReleaseMetaChanged m) {
        ReleaseMetaView meta = m.object() != null ? m.object() : gateway.read(KymaKind.RELEASE_META, m.namespace(), m.name()).orElse(null);
        if (meta == null) {
            return List.of(new Offer.Nothing(withdrawn(KymaModules.RELEASE_META, m.namespace(), m.name())));
        }
        String what = KymaModules.RELEASE_META + " " + m.namespace() + "/" + m.name();
        String module = meta.module();
        if (module == null) {
            throw new InvalidEventException(what + " has no spec.moduleName");
        }
        Map<String, String> offered = meta.channels();
        TreeSet<String> followed = new TreeSet<>(gateway.deployments(module).stream().map(ModuleDeployment::channel).toList());
        List<Offer> offers = new ArrayList<>();
        for (String channel : followed) {
            String version = offered.get(channel);
            if (version != null) {
                offers.add(template(m.namespace(), module, version)
                        .<Offer>map(t -> new Offer.Release(KymaModules.release(t, channel, trust.verifier())))
                        .orElseGet(() -> nothing(new NoChange("TemplateNotFound", what + " offers " + module + " "
                                + version + " on channel '" + channel + "' but no ModuleTemplate in namespace "
                                + m.namespace() + " describes that version; the release applies when that "
                                + "ModuleTemplate is created"), module, version)));
            }
        }
        if (offers.isEmpty()) {
            offers.add(nothing(followed.isEmpty() ? ModuleUpdatePlanner.notInstalled(module)
                    : new NoChange("ChannelNotOffered", what + " offers channels " + new TreeSet<>(offered.keySet())
                            + " but module " + module + " follows " + followed + "; nothing to release"), module, null));
        }
        return offers;
    }

    public List<Offer> ofTemplate(TemplateChanged t) {
        ModuleTemplateView template = t.object() != null ? t.object()
                : gateway.read(KymaKind.TEMPLATE, t.namespace(), t.name()).orElse(null);
        if (template == null) {
            return List.of(new Offer.Nothing(withdrawn(KymaModules.TEMPLATE, t.namespace(), t.name())));
        }
        String module = template.module();
        String version = template.version();
        Optional<SemVer> semver = SemVer.tryParse(version);
        if (module == null || semver.isEmpty()) {
            KymaModules.release(template, null, trust.verifier()); // throws the precise InvalidEventException
        }
        List<String> channels = channelsOffering(t.namespace(), module, semver.get());
        String legacy = template.channel();
        if (channels.isEmpty() && legacy != null) {
            channels.add(legacy);
        }
        if (channels.isEmpty()) {
            return List.of(nothing(new NoChange("NotReleasedOnAnyChannel", KymaModules.TEMPLATE + " " + t.namespace()
                    + "/" + t.name() + " describes " + module + " " + version + " but no ModuleReleaseMeta in namespace "
                    + t.namespace() + " offers that version on a channel; add it to spec.channels to release it"),
                    module, version));
        }
        return channels.stream().<Offer>map(c -> new Offer.Release(KymaModules.release(template, c, trust.verifier())))
                .toList();
    }

    private List<String> channelsOffering(String namespace, String module, SemVer version) {
        return gateway.list(KymaKind.RELEASE_META, namespace).stream()
                .filter(m -> module.equals(m.module()))
                .flatMap(m -> m.channels().entrySet().stream())
                .filter(c -> SemVer.tryParse(c.getValue()).map(v -> v.compareTo(version) == 0).orElse(false))
                .map(Map.Entry::getKey).distinct().sorted().collect(Collectors.toCollection(ArrayList::new));
    }

    private Optional<ModuleTemplateView> template(String namespace, String module, String version) {
        return ChannelReleases.find(gateway.list(KymaKind.TEMPLATE, namespace), namespace, module, version);
    }

    private static Offer nothing(ModulePlan plan, String module, String version) {
        return new Offer.Nothing(ModuleReplies.of(plan, module, null, version));
    }

    /** A release object as the apiserver holds it now; empty when it is gone. */
    public <V> Optional<V> read(KymaKind<V> kind, String namespace, String name) {
        return gateway.read(kind, namespace, name);
    }

    static Reply withdrawn(String kind, String namespace, String name) {
        return Reply.unchanged("ReleaseWithdrawn", kind + " " + namespace + "/" + name
                + " is deleted or gone; installed modules keep running as they are", List.of());
    }
}
