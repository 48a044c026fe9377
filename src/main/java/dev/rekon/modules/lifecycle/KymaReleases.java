package dev.rekon.modules.lifecycle;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.rekon.core.RefusedException;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway.Read;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.manifests.inventory.Inventory;
import dev.rekon.modules.lifecycle.plan.Release;
import dev.rekon.modules.lifecycle.plan.Resolution;
import dev.rekon.modules.manifest.ManifestSource;
import dev.rekon.modules.manifest.ModuleManifest;
import dev.rekon.modules.release.ChannelReleases;
import dev.rekon.modules.release.KymaKind;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;

/**
 * Resolves a Kyma's module entry to its release as Kyma does: the module's ModuleReleaseMeta names the version
 * of the entry's channel, the ModuleTemplate of that version (both in the Kyma's namespace) describes it, and its
 * raw-manifest is the whole release ({@link ManifestSource}). What is missing or refused is said, not thrown.
 * The release objects are read as the caller says ({@link Read}); a manifest named by its digest is read once and
 * then held ({@link HeldManifests}); the page's reads ({@code HELD}) read no registry, and say what they lack.
 */
@ApplicationScoped
public class KymaReleases {

    @Inject
    LifecycleGateway gateway;

    @Inject
    ManifestSource manifests;

    final HeldManifests held = new HeldManifests(HeldManifests.CAPACITY);

    public Resolution resolve(KymaModule key, DeclaredModule declared) {
        return resolve(key, declared, Read.CACHED);
    }

    public Resolution resolve(KymaModule key, DeclaredModule declared, Read read) {
        String where = "namespace " + key.namespace();
        Optional<ReleaseMetaView> meta = gateway.kymaObjects(KymaKind.RELEASE_META, key.namespace(), read).stream()
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
        List<ModuleTemplateView> templates = gateway.kymaObjects(KymaKind.TEMPLATE, key.namespace(), read);
        Optional<ModuleTemplateView> template = ChannelReleases.find(templates, key.namespace(), key.module(), version);
        if (template.isEmpty()) {
            return new Resolution.Unavailable("TemplateNotFound", "channel '" + declared.channel() + "' offers "
                    + key.module() + " " + version + " but no ModuleTemplate in " + where + " describes that version");
        }
        ModuleTemplateView t = template.get();
        return withManifest(ref(t.namespace(), t.name()), version, declared.channel(), t, read);
    }

    /**
     * The release the inventory names, resolved again: its ModuleTemplate ({@code namespace/name} as recorded) and
     * version, with its manifest. Unavailable when the template is gone, describes another version, or its
     * manifest is refused.
     */
    public Resolution installed(KymaModule key, Inventory inventory) {
        return installed(key, inventory, Read.CACHED);
    }

    public Resolution installed(KymaModule key, Inventory inventory, Read read) {
        String recorded = inventory.template();
        int slash = recorded == null ? -1 : recorded.indexOf('/');
        if (slash < 0 || inventory.version() == null) {
            return new Resolution.Unavailable("InstalledReleaseUnknown", "the inventory names no template and version");
        }
        String namespace = recorded.substring(0, slash);
        String name = recorded.substring(slash + 1);
        Optional<ModuleTemplateView> template = gateway.kymaObjects(KymaKind.TEMPLATE, namespace, read).stream()
                .filter(t -> name.equals(t.name())).findFirst()
                .filter(t -> ChannelReleases.find(List.of(t), namespace, key.module(), inventory.version()).isPresent());
        if (template.isEmpty()) {
            return new Resolution.Unavailable("TemplateNotFound", "ModuleTemplate " + recorded + " of the installed "
                    + key.module() + " " + inventory.version() + " is gone or describes another version");
        }
        return withManifest(recorded, inventory.version(), inventory.channel(), template.get(), read);
    }

    /** The release a template describes, with its manifest; unavailable when the manifest is refused. */
    private Resolution withManifest(String template, String version, String channel, ModuleTemplateView t,
            Read read) {
        Optional<HeldManifests.Key> pinned = manifests.pinned(t).map(d -> HeldManifests.Key.of(t, d));
        Optional<HeldManifests.Held> kept = pinned.flatMap(held::get);
        if (read == Read.HELD) {
            if (kept.isEmpty()) {
                return new Resolution.Unavailable(Resolution.NOT_READ, "the manifest of " + t.describe() + " ("
                        + t.module() + " " + version + ") was not read yet on this replica; the next event or resync"
                        + " pass reads it");
            }
            if (kept.get().refusal() != null) {
                return new Resolution.Unavailable("ManifestRefused", kept.get().refusal());
            }
        }
        try {
            ModuleManifest manifest = kept.map(HeldManifests.Held::manifest).orElseGet(() -> manifests.fetch(t));
            pinned.ifPresent(k -> held.put(k, manifest));
            return new Resolution.Found(new Release(template, version, channel, t.intendedDowngrade(), manifest,
                    t.manager()));
        } catch (RefusedException e) {
            pinned.ifPresent(k -> held.refused(k, e.getMessage()));
            // A refused manifest is the module's state (it stays where it is, saying why), not a rejected event.
            return new Resolution.Unavailable("ManifestRefused", e.getMessage());
        }
    }

    /** namespace/name of a Kyma object, for messages. */
    private static String ref(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }
}
