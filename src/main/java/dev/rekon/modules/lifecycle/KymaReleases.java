package dev.rekon.modules.lifecycle;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.RefusedException;
import dev.rekon.modules.ChannelReleases;
import dev.rekon.modules.KymaModules;
import dev.rekon.modules.lifecycle.apply.LifecycleGateway;
import dev.rekon.modules.lifecycle.intent.DeclaredModule;
import dev.rekon.modules.lifecycle.plan.Release;
import dev.rekon.modules.lifecycle.plan.Resolution;
import dev.rekon.modules.manifest.ManifestSource;

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
        Optional<JsonNode> meta = gateway.kymaObjects(KymaModules.RELEASE_META, key.namespace()).stream()
                .filter(m -> key.module().equals(KymaModules.releaseMetaModule(m))).findFirst();
        if (meta.isEmpty()) {
            return new Resolution.Unavailable("ModuleReleaseMetaNotFound", "no ModuleReleaseMeta in " + where
                    + " has spec.moduleName " + key.module() + "; publish the module's ModuleReleaseMeta there");
        }
        String version = KymaModules.channels(meta.get()).get(declared.channel());
        if (version == null) {
            return new Resolution.Unavailable("ChannelNotOffered", "ModuleReleaseMeta " + KymaModulesRef.of(meta.get())
                    + " offers channels " + KymaModules.channels(meta.get()).keySet() + ", not '" + declared.channel()
                    + "'; choose one of them in the Kyma's spec.modules[].channel");
        }
        List<JsonNode> templates = gateway.kymaObjects(KymaModules.TEMPLATE, key.namespace());
        Optional<JsonNode> template = ChannelReleases.find(templates, key.namespace(), key.module(), version);
        if (template.isEmpty()) {
            return new Resolution.Unavailable("TemplateNotFound", "channel '" + declared.channel() + "' offers "
                    + key.module() + " " + version + " but no ModuleTemplate in " + where + " describes that version");
        }
        try {
            JsonNode t = template.get();
            boolean downgrade = "true".equals(t.path("metadata").path("annotations")
                    .path(KymaModules.INTENDED_DOWNGRADE_ANNOTATION).asText());
            return new Resolution.Found(new Release(KymaModulesRef.of(t), version, declared.channel(), downgrade,
                    manifests.fetch(t), t.path("spec").get("manager")));
        } catch (RefusedException e) {
            return new Resolution.Unavailable("ManifestRefused", e.getMessage());
        }
    }

    /** namespace/name of a Kyma object, for messages. */
    static final class KymaModulesRef {
        private KymaModulesRef() {
        }

        static String of(JsonNode o) {
            return o.path("metadata").path("namespace").asText() + "/" + o.path("metadata").path("name").asText();
        }
    }
}
