package dev.rekon.declared.apply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.ApiKinds;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.TreeCalls;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.RekonConfig;
import dev.rekon.declared.DeclaredKey;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.DesiredObjects;
import dev.rekon.declared.plan.OrphanRules;
import dev.rekon.declared.source.GitCredentials;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.apply.Impersonation;
import dev.rekon.manifests.apply.KubeManifestObjects;
import dev.rekon.manifests.apply.ManifestCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * The {@link DeclaredGateway} on the Kubernetes API: DeclaredStates read as generic objects and patched as trees
 * (status and finalizers as JSON merge patches carrying the resourceVersion they are guarded by), credentials from a
 * Secret in the DeclaredState's namespace, its objects through the shared engine as its ServiceAccount.
 */
@ApplicationScoped
public class KubeDeclaredGateway implements DeclaredGateway {

    @Inject
    KubernetesClient client;

    @Inject
    Impersonation impersonation;

    @Inject
    ApiKinds kinds;

    @Inject
    RekonConfig config;

    @Inject
    ObjectMapper json;

    @Inject
    TreeCalls calls;

    @Override
    public Optional<DeclaredStateView> state(String namespace, String name) {
        ObjectRef ref = new DeclaredKey(namespace, name, false).ref();
        return Optional.ofNullable(KubeErrors.call(ref, "read " + ref, () -> op().inNamespace(namespace).withName(name)
                .get())).map(o -> DeclaredStateView.of(json.valueToTree(o)));
    }

    @Override
    public List<DeclaredStateView> states(String namespace) {
        var op = op();
        return KubeErrors.call("list DeclaredStates", () -> namespace != null ? op.inNamespace(namespace).list().getItems()
                : config.namespacePolicy().across(ns -> op.inNamespace(ns).list().getItems(),
                        () -> op.inAnyNamespace().list().getItems()))
                .stream().map(o -> DeclaredStateView.of(json.valueToTree(o))).toList();
    }

    @Override
    public Optional<GitCredentials> credentials(String namespace, String secret) {
        ObjectRef ref = new ObjectRef("v1", "Secret", namespace, secret);
        Secret s = KubeErrors.call(ref, "read " + ref, () -> client.secrets().inNamespace(namespace).withName(secret).get());
        if (s == null || s.getData() == null || !s.getData().containsKey("password")) {
            return Optional.empty();
        }
        Map<String, String> data = s.getData();
        return Optional.of(new GitCredentials(decode(data.get("username")), decode(data.get("password"))));
    }

    private static String decode(String base64) {
        return base64 == null ? null : new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8).trim();
    }

    @Override
    public ManifestCluster objects(DeclaredStateView state) {
        return new KubeManifestObjects(impersonation.as(state.namespace(), state.serviceAccountName()), json,
                DesiredObjects.OWNER_LABEL, kinds);
    }

    @Override
    public Set<String> clusterKinds() {
        return kinds.served().stream().filter(k -> !k.namespaced())
                .map(k -> Identity.group(k.apiVersion()) + "/" + k.kind()).collect(Collectors.toSet());
    }

    @Override
    public boolean serves(String apiVersion, String kind) {
        return kinds.kind(apiVersion, kind).isPresent();
    }

    @Override
    public List<ObjectRef> namespacedKinds(String namespace) {
        List<ObjectRef> out = new ArrayList<>();
        kinds.served().stream().filter(ApiKinds.Kind::namespaced).filter(k -> !OrphanRules.neverOrphans(k.apiVersion(), k.kind()))
                .forEach(k -> out.add(new ObjectRef(k.apiVersion(), k.kind(), namespace, "")));
        return out;
    }

    @Override
    public String finalizer(DeclaredStateView state, String resourceVersion, boolean present) {
        List<String> finalizers = new ArrayList<>(state.finalizers());
        finalizers.remove(DeclaredStateView.FINALIZER);
        if (present) {
            finalizers.add(DeclaredStateView.FINALIZER);
        }
        ObjectNode patch = json.createObjectNode();
        ObjectNode meta = patch.putObject("metadata").put("resourceVersion", resourceVersion);
        finalizers.forEach(meta.putArray("finalizers")::add);
        return patch(state, patch, false, (present ? "add" : "remove") + " the finalizer of ");
    }

    @Override
    public String writeStatus(DeclaredStateView state, String resourceVersion, DeclaredStateStatus status) {
        ObjectNode patch = json.createObjectNode();
        patch.putObject("metadata").put("resourceVersion", resourceVersion);
        patch.set("status", DeclaredStatusBody.of(status));
        return patch(state, patch, true, "write the status of ");
    }

    /** The answer is read as a tree for its resourceVersion alone, not made a typed object first. */
    private String patch(DeclaredStateView state, ObjectNode patch, boolean status, String what) {
        ObjectRef ref = new DeclaredKey(state.namespace(), state.name(), false).ref();
        String path = TreeCalls.path(DeclaredKey.API_VERSION, "declaredstates", state.namespace(), state.name());
        return calls.mergePatch(ref, what + ref, status ? path + "/status" : path, patch, null).path("metadata")
                .path("resourceVersion").asText(null);
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> op() {
        return client.genericKubernetesResources(DeclaredKey.API_VERSION, DeclaredKey.KIND);
    }
}
