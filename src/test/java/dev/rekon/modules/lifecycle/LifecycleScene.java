package dev.rekon.modules.lifecycle;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RekonConfig;
import dev.rekon.modules.ModuleTrust;
import dev.rekon.modules.lifecycle.apply.InMemoryLifecycle;
import dev.rekon.modules.manifest.ManifestFetcher;
import dev.rekon.modules.manifest.ManifestFixtures;
import dev.rekon.modules.manifest.ManifestReader;
import dev.rekon.modules.ocm.PublicKeys;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.modules.plan.ModuleUpdatePlanner;
import dev.rekon.pipeline.NamespaceGuard;
import dev.rekon.pipeline.ReconcileLoop;
import dev.rekon.registry.RegistryImage;
import dev.rekon.testing.RecordingEvents;

/**
 * The module {@code widgets} of Kyma {@code kcp/default} over an {@link InMemoryLifecycle}, for service tables:
 * releases published as Kyma publishes them (a ModuleTemplate whose raw-manifest is a local blob, read by the
 * real {@link ManifestReader}, which checks its digest), a ModuleReleaseMeta, and the Kyma; the service wired as
 * CDI wires it.
 */
final class LifecycleScene {

    static final String KCP = "kcp";
    static final String MODULE = "widgets";
    static final String KYMA = "operator.kyma-project.io/v1beta2";
    static final String GROUP = "e2e.rekon.dev";

    final InMemoryLifecycle cluster = new InMemoryLifecycle();
    final RecordingEvents events = new RecordingEvents();
    final Board board;
    final Map<String, byte[]> blobs = new HashMap<>();
    final KymaModuleService service;

    LifecycleScene() {
        this(NamespacePolicy.parse("*", true));
    }

    /** A scene where Rekon may act only in the namespaces of {@code policy}. */
    LifecycleScene(NamespacePolicy policy) {
        service = service(policy);
        board = service::rows;
    }

    /** The page's lifecycle rows of this scene's loop, in a namespace (null: all). */
    interface Board {
        java.util.List<dev.rekon.modules.lifecycle.status.LifecycleRow> rows(String namespace);
    }

    /** The manifest at a version: 0.x keeps a ConfigMap that 1.x drops; the Deployment's image is the version. */
    static Map<String, String> files(String version) {
        return files(MODULE, version);
    }

    /**
     * The manifest of a module (a plural noun: its namespace, and its CRD's plural; {@code widgets} serves kind
     * {@code Widget}) at a version.
     */
    static Map<String, String> files(String module, String version) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("00-namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + module + "}\n");
        f.put("10-crd.yaml", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: "
                + module + "." + group(module) + "}\nspec:\n  group: " + group(module) + "\n  names: {kind: " + kind(module)
                + ", plural: " + module + "}\n  scope: Namespaced\n");
        f.put("20-sa.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: controller, namespace: " + module
                + "}\n");
        if (version.startsWith("0.")) {
            f.put("30-config.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: " + module
                    + "}\ndata: {level: info}\n");
        }
        f.put("40-deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: controller, namespace: "
                + module + "}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: '" + module + ":"
                + version + "'}]\n");
        return f;
    }

    /** The API group of a module's CRD: {@link #GROUP} for {@code widgets}, one of its own for any other. */
    static String group(String module) {
        return MODULE.equals(module) ? GROUP : module + "." + GROUP;
    }

    /** The kind a module's CRD serves: {@code widgets} serves {@code Widget}. */
    static String kind(String module) {
        return Character.toUpperCase(module.charAt(0)) + module.substring(1, module.length() - 1);
    }

    /** Publishes a version; {@code tamper}: the registry serves other bytes under the blob's digest. */
    LifecycleScene publish(String version, boolean tamper) throws Exception {
        return publish(MODULE, version, tamper);
    }

    /** Publishes a version of a module (see {@link #files(String, String)}). */
    LifecycleScene publish(String module, String version, boolean tamper) throws Exception {
        byte[] tar = ManifestFixtures.tar(files(module, version));
        ObjectNode d = ManifestFixtures.localBlobDescriptor(version, "registry.test", tar);
        blobs.put(ManifestFixtures.digest(tar), tamper ? ManifestFixtures.tar(files(module, "9.9.9")) : tar);
        ObjectNode t = ManifestFixtures.template(module + "-" + version, version, d);
        ((ObjectNode) t.get("spec")).put("moduleName", module).set("data", new YAMLMapper().readTree("apiVersion: "
                + group(module) + "/v1\nkind: " + kind(module) + "\nmetadata: {name: default, namespace: " + module
                + "}\nspec: {size: 1}\n"));
        cluster.kymaObjects.add(t);
        return this;
    }

    LifecycleScene channel(String version) {
        return channel(MODULE, version);
    }

    /** The module's ModuleReleaseMeta, its channel {@code regular} offering {@code version}. */
    LifecycleScene channel(String module, String version) {
        cluster.kymaObjects.removeIf(o -> "ModuleReleaseMeta".equals(o.path("kind").asText())
                && module.equals(o.at("/spec/moduleName").asText()));
        ObjectNode m = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "ModuleReleaseMeta");
        m.putObject("metadata").put("name", module).put("namespace", KCP);
        m.putObject("spec").put("moduleName", module).putArray("channels").addObject().put("channel", "regular")
                .put("version", version);
        cluster.kymaObjects.add(m);
        return this;
    }

    /** The Kyma {@code kcp/default}: listing the module (managed or not), or nothing when {@code managed} is null. */
    LifecycleScene kyma(Boolean managed) {
        return kyma("default", MODULE, managed);
    }

    /** The Kyma {@code kcp/<name>}: listing {@code module} (managed or not), or nothing when {@code managed} is null. */
    LifecycleScene kyma(String name, String module, Boolean managed) {
        ObjectNode k = TestSigning.JSON.createObjectNode().put("apiVersion", KYMA).put("kind", "Kyma");
        k.putObject("metadata").put("name", name).put("namespace", KCP);
        var modules = k.putObject("spec").put("channel", "regular").putArray("modules");
        if (managed != null) {
            modules.addObject().put("name", module).put("managed", managed);
        }
        cluster.kyma(k);
        return this;
    }

    /** 0.4.1 published, offered and listed, installed by an event; the logs start empty after it. */
    LifecycleScene installed() throws Exception {
        publish("0.4.1", false).channel("0.4.1").kyma(true);
        service.kymaChanged(KCP, "default");
        return forgetLogs();
    }

    LifecycleScene forgetLogs() {
        cluster.writes.clear();
        events.recorded.clear();
        return this;
    }

    static ObjectNode object(String apiVersion, String kind, String name, String moduleLabel) {
        ObjectNode o = TestSigning.JSON.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name).put("namespace", "widgets");
        if (moduleLabel != null) {
            meta.putObject("labels").put("rekon.dev/module", moduleLabel);
        }
        return o;
    }

    private KymaModuleService service(NamespacePolicy policy) {
        KymaReleases releases = new KymaReleases();
        releases.gateway = cluster;
        releases.manifests = new ManifestReader(new Blobs(), new SignatureVerifier(PublicKeys.load("")), false);
        KymaModuleReconciler r = new KymaModuleReconciler();
        r.gateway = cluster;
        r.releases = releases;
        r.writes = cluster.writes(events);
        r.config = new RekonConfig() {
            @Override
            public NamespacePolicy namespacePolicy() {
                return policy;
            }
        };
        r.trust = new ModuleTrust() {
            @Override
            public ModuleUpdatePlanner.Policy policy() {
                return new ModuleUpdatePlanner.Policy(false, Optional.empty());
            }
        };
        r.clock = Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC);
        KymaModuleService s = new KymaModuleService();
        s.gateway = cluster;
        s.reconciler = r;
        s.loop = ReconcileLoop.of(NamespaceGuard.of(policy));
        r.plans = s.loop.lastPlans();
        return s;
    }

    /** The registry, as far as local blobs go. */
    private final class Blobs implements ManifestFetcher {
        @Override
        public byte[] blob(ObjectRef template, String repository, String digest) {
            return blobs.get(digest);
        }

        @Override
        public RegistryImage artifact(ObjectRef template, String imageReference) {
            throw new UnsupportedOperationException("only local blobs are published here");
        }

        @Override
        public byte[] link(ObjectRef template, URI uri) {
            throw new UnsupportedOperationException("only local blobs are published here");
        }
    }
}
