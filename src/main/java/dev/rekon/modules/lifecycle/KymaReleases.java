package dev.rekon.modules.lifecycle;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.RefusedException;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.plan.Release;
import dev.rekon.modules.lifecycle.plan.Resolution;
import dev.rekon.modules.manifest.ManifestSource;
import dev.rekon.modules.release.ChannelReleases;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;

/**
 * Resolves a Kyma's module entry to its release as Kyma does: the module's ModuleReleaseMeta names the version
 * of the entry's channel, the ModuleTemplate of that version (both in the Kyma's namespace) describes it, and its
 * raw-manifest is the whole release ({@link ManifestSource}). What is missing or refused is said, not thrown.
 */
@ApplicationScoped
public class KymaReleases {

    @Inject
    LifecycleGateway gateway;

    @Inject
    ManifestSource manifests;

    public Resolution resolve(KymaModule key, DeclaredModule declared) {
        String where = "namespace " + key.namespace();
        Optional<ReleaseMetaView> meta = gateway.kymaObjects(KymaKind.RELEASE_META, key.namespace()).stream()
                .filter(m -> key.module().equals(m.module())).findFirst();
        if (meta.isEmpty()) {
            return new Resolution.Unavailable("ModuleReleaseMetaNotFound", "no ModuleReleaseMeta in " + where
                    + " has spec.moduleName " + key.module() + "; publish the module's ModuleReleaseMeta there");
        }
        String version = meta.get().channels().get(declared.channel());
        if (version == null) {
            return new Resolution.Unavailable("ChannelNotOffered", "ModuleReleaseMeta " + ref(meta.get().namespace(),
                    meta.get().name()) + " offers channels " + meta.get().channels().keySet() + ", not '" + declared.channel()
                    + "'; choose one of them in the Kyma's spec.modules[].channel");
        }
        List<ModuleTemplateView> templates = gateway.kymaObjects(KymaKind.TEMPLATE, key.namespace());
        Optional<ModuleTemplateView> template = ChannelReleases.find(templates, key.namespace(), key.module(), version);
        if (template.isEmpty()) {
            return new Resolution.Unavailable("TemplateNotFound", "channel '" + declared.channel() + "' offers "
                    + key.module() + " " + version + " but no ModuleTemplate in " + where + " describes that version");
        }
        ModuleTemplateView t = template.get();
        return withManifest(ref(t.namespace(), t.name()), version, declared.channel(), t);
    }

    /**
     * The release the inventory names, resolved again: its ModuleTemplate ({@code namespace/name} as recorded) and
     * version, with its manifest. Unavailable when the template is gone, describes another version, or its
     * manifest is refused.
     */
    public Resolution installed(KymaModule key, Inventory inventory) {
        String recorded = inventory.template();
        int slash = recorded == null ? -1 : recorded.indexOf('/');
        if (slash < 0 || inventory.version() == null) {
            return new Resolution.Unavailable("InstalledReleaseUnknown", "the inventory names no template and version");
        }
        String namespace = recorded.substring(0, slash);
        String name = recorded.substring(slash + 1);
        Optional<ModuleTemplateView> template = gateway.kymaObjects(KymaKind.TEMPLATE, namespace).stream()
                .filter(t -> name.equals(t.name())).findFirst()
                .filter(t -> ChannelReleases.find(List.of(t), namespace, key.module(), inventory.version()).isPresent());
        if (template.isEmpty()) {
            return new Resolution.Unavailable("TemplateNotFound", "ModuleTemplate " + recorded + " of the installed "
                    + key.module() + " " + inventory.version() + " is gone or describes another version");
        }
        return withManifest(recorded, inventory.version(), inventory.channel(), template.get());
    }

    /** The release a template describes, with its manifest; unavailable when the manifest is refused. */
    private Resolution withManifest(String template, String version, String channel, ModuleTemplateView t) {
        try {
            return new Resolution.Found(new Release(template, version, channel, t.intendedDowngrade(),
                    manifests.fetch(t), t.manager()));
        } catch (RefusedException e) {
            // A refused manifest is the module's state (it stays where it is, saying why), not a rejected event.
            return new Resolution.Unavailable("ManifestRefused", e.getMessage());
        }
    }

    /** namespace/name of a Kyma object, for messages. */
    private static String ref(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }
}
