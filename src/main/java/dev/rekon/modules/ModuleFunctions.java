package dev.rekon.modules;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.cluster.InstalledKinds;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.SemVer;
import dev.rekon.events.ApiServerEvent;
import dev.rekon.modules.ModuleGateway.StaleDeploymentException;
import dev.rekon.modules.ModulePlan.NoChange;
import io.quarkus.funqy.Funq;
import io.quarkus.funqy.knative.events.CloudEvent;
import io.quarkus.funqy.knative.events.CloudEventMapping;
import io.quarkus.funqy.knative.events.EventAttribute;

/**
 * The module functions: ApiServerSource events for Kyma ModuleReleaseMeta and ModuleTemplate objects, and the
 * manual release, enable and disable events. Each reads the module's Deployments, plans, applies the plan
 * with optimistic concurrency (re-reading and re-planning when another writer came first) and replies.
 */
public class ModuleFunctions {

    public static final String REPLY_TYPE = "dev.rekon.modules.reply";
    public static final String ENABLE_TYPE = "dev.rekon.modules.enable";
    public static final String DISABLE_TYPE = "dev.rekon.modules.disable";
    static final int ATTEMPTS = 5;

    @Inject
    ModuleGateway gateway;

    @Inject
    ModuleTrust trust;

    @Inject
    InstalledKinds kinds;

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, attributes = @EventAttribute(name = "kind", value = KymaModules.RELEASE_META))
    public ModuleReply modulesReleaseMeta(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parse(event);
        Optional<ModuleReply> notInstalled = notInstalled(e);
        if (notInstalled.isPresent()) {
            return notInstalled.get();
        }
        Optional<JsonNode> meta = current(e, KymaModules.RELEASE_META);
        if (meta.isEmpty()) {
            return gone(e);
        }
        String module = KymaModules.releaseMetaModule(meta.get());
        if (module == null) {
            throw new InvalidEventException(e.kind() + " " + e.namespace() + "/" + e.name() + " has no spec.moduleName");
        }
        Map<String, String> offered = KymaModules.channels(meta.get());
        TreeSet<String> followed = new TreeSet<>(gateway.deployments(module).stream().map(ModuleDeployment::channel).toList());
        List<ModuleReply> replies = new ArrayList<>();
        for (String channel : followed) {
            String version = offered.get(channel);
            if (version != null) {
                replies.add(template(e.namespace(), module, version)
                        .map(t -> release(KymaModules.release(t, channel, trust.verifier())))
                        .orElseGet(() -> reply(new NoChange("TemplateNotFound", e.kind() + " " + e.namespace() + "/"
                                + e.name() + " offers " + module + " " + version + " on channel '" + channel + "' but no "
                                + "ModuleTemplate in namespace " + e.namespace() + " describes that version; the release"
                                + " applies when that ModuleTemplate is created"), module, null, version)));
            }
        }
        if (replies.isEmpty()) {
            return reply(followed.isEmpty() ? ModuleUpdatePlanner.notInstalled(module)
                    : new NoChange("ChannelNotOffered", e.kind() + " " + e.namespace() + "/" + e.name() + " offers"
                            + " channels " + new TreeSet<>(offered.keySet()) + " but module " + module + " follows "
                            + followed + "; nothing to release"), module, null, null);
        }
        return combine(replies);
    }

    @Funq
    @CloudEventMapping(trigger = "*", responseType = REPLY_TYPE, attributes = @EventAttribute(name = "kind", value = KymaModules.TEMPLATE))
    public ModuleReply modulesTemplate(CloudEvent<JsonNode> event) {
        ApiServerEvent e = ApiServerEvent.parse(event);
        Optional<ModuleReply> notInstalled = notInstalled(e);
        if (notInstalled.isPresent()) {
            return notInstalled.get();
        }
        Optional<JsonNode> template = current(e, KymaModules.TEMPLATE);
        if (template.isEmpty()) {
            return gone(e);
        }
        String module = KymaModules.templateModule(template.get());
        String version = KymaModules.templateVersion(template.get());
        Optional<SemVer> semver = SemVer.tryParse(version);
        if (module == null || semver.isEmpty()) {
            KymaModules.release(template.get(), null, trust.verifier()); // throws the precise InvalidEventException
        }
        List<String> channels = gateway.list(KymaModules.RELEASE_META, e.namespace()).stream()
                .filter(m -> module.equals(KymaModules.releaseMetaModule(m)))
                .flatMap(m -> KymaModules.channels(m).entrySet().stream())
                .filter(c -> SemVer.tryParse(c.getValue()).map(v -> v.compareTo(semver.get()) == 0).orElse(false))
                .map(Map.Entry::getKey).distinct().sorted().collect(Collectors.toCollection(ArrayList::new));
        String legacy = KymaModules.templateChannel(template.get());
        if (channels.isEmpty() && legacy != null) {
            channels.add(legacy);
        }
        if (channels.isEmpty()) {
            return reply(new NoChange("NotReleasedOnAnyChannel", e.kind() + " " + e.namespace() + "/" + e.name()
                    + " describes " + module + " " + version + " but no ModuleReleaseMeta in namespace " + e.namespace()
                    + " offers that version on a channel; add it to spec.channels to release it"), module, null, version);
        }
        return combine(channels.stream().map(c -> release(KymaModules.release(template.get(), c, trust.verifier())))
                .toList());
    }

    @Funq
    @CloudEventMapping(trigger = ManualRelease.TYPE, responseType = REPLY_TYPE)
    public ModuleReply modulesRelease(CloudEvent<JsonNode> event) {
        return release(ManualRelease.parse(ApiServerEvent.data(event), trust.verifier()));
    }

    @Funq
    @CloudEventMapping(trigger = ENABLE_TYPE, responseType = REPLY_TYPE)
    public ModuleReply modulesEnable(CloudEvent<JsonNode> event) {
        String module = moduleOf(ApiServerEvent.data(event), ENABLE_TYPE);
        return retrying(() -> {
            List<ModuleDeployment> installed = gateway.deployments(module);
            return reply(ModuleSwitchPlanner.enable(module, installed), module, versions(installed), null);
        });
    }

    @Funq
    @CloudEventMapping(trigger = DISABLE_TYPE, responseType = REPLY_TYPE)
    public ModuleReply modulesDisable(CloudEvent<JsonNode> event) {
        String module = moduleOf(ApiServerEvent.data(event), DISABLE_TYPE);
        return retrying(() -> {
            List<ModuleDeployment> installed = gateway.deployments(module);
            return reply(ModuleSwitchPlanner.disable(module, installed), module, versions(installed), null);
        });
    }

    ModuleReply release(ModuleRelease release) {
        return retrying(() -> {
            ModuleUpdatePlanner.Decision d = ModuleUpdatePlanner.plan(release, gateway.deployments(release.module()),
                    trust.policy(), Instant.now());
            return reply(d.plan(), release.module(), d.fromVersion(), d.toVersion());
        });
    }

    /** Applies the plan the step makes; on a write conflict reads, plans and applies again. */
    private ModuleReply retrying(Supplier<ModuleReply> planAndApply) {
        StaleDeploymentException last = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                return planAndApply.get();
            } catch (StaleDeploymentException e) {
                last = e;
            }
        }
        throw last;
    }

    private ModuleReply reply(ModulePlan plan, String module, String from, String to) {
        if (plan instanceof ModulePlan.Apply apply) {
            apply.patches().forEach(gateway::patch);
        }
        return ModuleReply.of(plan, module, from, to);
    }

    /** The object the event is about, read again in Reference mode; the kind is the function's own. */
    private Optional<JsonNode> current(ApiServerEvent e, String kind) {
        if (e.namespace() == null) {
            throw new InvalidEventException(kind + " is namespaced: the event needs its namespace (in the object, the "
                    + "ObjectReference or the CloudEvent extension 'namespace')");
        }
        if (e.verb() == ApiServerEvent.Verb.DELETE) {
            return Optional.empty();
        }
        return e.reference() ? gateway.read(kind, e.namespace(), e.name()) : Optional.of(e.object());
    }

    /** A Kyma kind's event on a cluster without Kyma's CRDs (only a manual one can be): rejected, naming them. */
    private Optional<ModuleReply> notInstalled(ApiServerEvent e) {
        return kinds.notInstalled("a " + e.kind() + " event", InstalledKinds.KYMA_KINDS)
                .map(m -> new ModuleReply(Outcome.REJECTED, InstalledKinds.REASON, m, null, null, null,
                        List.of(new ObjectRef(e.apiVersion(), e.kind(), e.namespace(), e.name()))));
    }

    private static ModuleReply gone(ApiServerEvent e) {
        return new ModuleReply(Outcome.UNCHANGED, "ReleaseWithdrawn", e.kind() + " " + e.namespace() + "/" + e.name()
                + " is deleted or gone; installed modules keep running as they are", null, null, null, List.of());
    }

    private Optional<JsonNode> template(String namespace, String module, String version) {
        return gateway.list(KymaModules.TEMPLATE, namespace).stream()
                .filter(t -> module.equals(KymaModules.templateModule(t)))
                .filter(t -> SemVer.tryParse(KymaModules.templateVersion(t))
                        .flatMap(v -> SemVer.tryParse(version).map(w -> v.compareTo(w) == 0)).orElse(false))
                .findFirst();
    }

    /** Several channels in one event: the most serious outcome speaks for all, the objects are all listed. */
    static ModuleReply combine(List<ModuleReply> replies) {
        if (replies.size() == 1) {
            return replies.get(0);
        }
        ModuleReply lead = replies.stream().min(Comparator.comparing(r -> switch (r.outcome()) {
            case REJECTED -> 0;
            case APPLIED -> 1;
            case UNCHANGED -> 2;
        })).orElseThrow();
        List<ObjectRef> objects = replies.stream().flatMap(r -> r.objects().stream()).distinct().toList();
        return new ModuleReply(lead.outcome(), lead.reason(), replies.stream().map(ModuleReply::message)
                .collect(Collectors.joining("; ")), lead.module(), lead.fromVersion(), lead.toVersion(), objects);
    }

    private static String moduleOf(JsonNode data, String type) {
        String module = data == null ? "" : data.path("module").asText("");
        if (module.isBlank()) {
            throw new InvalidEventException(type + " needs JSON data {\"module\": \"<name>\"}");
        }
        return module;
    }

    private static String versions(List<ModuleDeployment> installed) {
        return installed.isEmpty() ? null : ModuleUpdatePlanner.runningVersions(installed);
    }
}
