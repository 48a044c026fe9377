package dev.rekon.modules.lifecycle.apply;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.FieldManager;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.modules.lifecycle.inventory.Identity;
import dev.rekon.modules.lifecycle.plan.LiveObject;
import dev.rekon.modules.plan.ModuleDeployment;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * A module's objects on the Kubernetes API, all as the {@link KubeApplyIdentity}: read with one list per kind and
 * namespace by the module's label, and, for the objects of the manifest that list did not find (to tell a free
 * name from someone else's object), one GET each, or one list of the kind when more than a few are missing (an
 * install); applied server-side and deleted.
 */
@ApplicationScoped
public class KubeModuleObjects {

    private static final Duration ESTABLISHED_WAIT = Duration.ofSeconds(20);
    /** Objects of one kind and namespace not found by label read one by one; more are read with one list. */
    private static final int GETS_PER_KIND = 4;

    @Inject
    KubeApplyIdentity identity;

    @Inject
    ObjectMapper json;

    public Map<String, LiveObject> live(String module, Collection<ObjectRef> refs) {
        Map<String, LiveObject> live = new LinkedHashMap<>();
        Map<String, List<ObjectRef>> byKindAndNamespace = refs.stream().collect(Collectors.groupingBy(
                r -> r.apiVersion() + "|" + r.kind() + "|" + (r.namespace() == null ? "" : r.namespace()),
                LinkedHashMap::new, Collectors.toList()));
        for (List<ObjectRef> group : byKindAndNamespace.values()) {
            ObjectRef first = group.get(0);
            for (GenericKubernetesResource r : listLabelled(first, module)) {
                put(live, r);
            }
            List<ObjectRef> missing = group.stream().filter(r -> !live.containsKey(Identity.key(r))).toList();
            if (missing.size() > GETS_PER_KIND) {
                // An install: one list of the kind beats a GET per object (300 objects: 1 call, not 300).
                java.util.Set<String> wanted = missing.stream().map(Identity::key).collect(Collectors.toSet());
                listAll(first).stream().filter(r -> wanted.contains(Identity.key(refOf(r)))).forEach(r -> put(live, r));
            } else {
                missing.stream().map(this::get).filter(java.util.Objects::nonNull).forEach(r -> put(live, r));
            }
        }
        return live;
    }

    private static ObjectRef refOf(GenericKubernetesResource r) {
        return new ObjectRef(r.getApiVersion(), r.getKind(), r.getMetadata().getNamespace(), r.getMetadata().getName());
    }

    private void put(Map<String, LiveObject> live, GenericKubernetesResource r) {
        ObjectNode object = json.valueToTree(r);
        ObjectRef ref = refOf(r);
        String module = r.getMetadata().getLabels() == null ? null
                : r.getMetadata().getLabels().get(ModuleDeployment.MODULE_LABEL);
        live.put(Identity.key(ref), new LiveObject(ref, module, object));
    }

    private List<GenericKubernetesResource> listLabelled(ObjectRef kind, String module) {
        return unlessUnserved(kind, "list " + kind.kind() + " of module " + module,
                () -> op(kind).withLabel(ModuleDeployment.MODULE_LABEL, module).list().getItems(), List.of());
    }

    private List<GenericKubernetesResource> listAll(ObjectRef kind) {
        return unlessUnserved(kind, "list " + kind.kind() + (kind.namespace() == null ? "" : " in " + kind.namespace()),
                () -> op(kind).list().getItems(), List.of());
    }

    private GenericKubernetesResource get(ObjectRef ref) {
        return unlessUnserved(ref, "read " + ref, () -> op(ref).withName(ref.name()).get(), null);
    }

    /** A kind the cluster does not serve yet (its CRD comes with this very release) has no objects. */
    private static <T> T unlessUnserved(ObjectRef ref, String what, java.util.function.Supplier<T> call, T none) {
        try {
            return KubeErrors.call(ref, what, () -> {
                try {
                    return call.get();
                } catch (KubernetesClientException e) {
                    if (e.getCode() <= 0 && String.valueOf(e.getMessage()).contains("Could not find the metadata")) {
                        return none;
                    }
                    throw e;
                }
            });
        } catch (dev.rekon.core.RefusedException e) {
            if (e.code() == 404) {
                return none;
            }
            throw e;
        }
    }

    public List<ObjectRef> customResources(ObjectRef crdRef) {
        CustomResourceDefinition crd = KubeErrors.call(crdRef, "read " + crdRef,
                () -> identity.writer().apiextensions().v1().customResourceDefinitions().withName(crdRef.name()).get());
        if (crd == null) {
            return List.of();
        }
        String version = crd.getSpec().getVersions().stream().filter(v -> Boolean.TRUE.equals(v.getServed()))
                .findFirst().map(v -> v.getName()).orElse(crd.getSpec().getVersions().get(0).getName());
        String apiVersion = crd.getSpec().getGroup() + "/" + version;
        String kind = crd.getSpec().getNames().getKind();
        ObjectRef any = new ObjectRef(apiVersion, kind, null, "");
        return KubeErrors.call(crdRef, "list " + kind, () -> identity.writer().genericKubernetesResources(apiVersion, kind)
                .inAnyNamespace().list().getItems()).stream().map(r -> new ObjectRef(apiVersion, kind,
                        r.getMetadata().getNamespace(), r.getMetadata().getName())).filter(r -> !r.equals(any)).toList();
    }

    public void apply(ObjectNode object) {
        GenericKubernetesResource r = json.convertValue(object, GenericKubernetesResource.class);
        ObjectRef ref = new ObjectRef(r.getApiVersion(), r.getKind(), r.getMetadata().getNamespace(),
                r.getMetadata().getName());
        KubeErrors.call(ref, "apply " + ref, () -> identity.writer().resource(r).fieldManager(FieldManager.NAME)
                .forceConflicts().serverSideApply());
    }

    public void awaitEstablished(ObjectRef crd) {
        long deadline = System.nanoTime() + ESTABLISHED_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            CustomResourceDefinition c = KubeErrors.call(crd, "read " + crd,
                    () -> identity.writer().apiextensions().v1().customResourceDefinitions().withName(crd.name()).get());
            if (c != null && c.getStatus() != null && c.getStatus().getConditions() != null && c.getStatus().getConditions().stream()
                    .anyMatch(s -> "Established".equals(s.getType()) && "True".equals(s.getStatus()))) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new TransientFailureException(crd + " is not Established after " + ESTABLISHED_WAIT.toSeconds()
                + " s; the module's resources of it wait", null);
    }

    public void delete(ObjectRef ref) {
        try {
            KubeErrors.run("delete " + ref, () -> opOf(identity.writer(), ref).withName(ref.name()).delete());
        } catch (KubeErrors.PermanentApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> op(ObjectRef ref) {
        return opOf(identity.writer(), ref);
    }

    private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> opOf(
            KubernetesClient c, ObjectRef ref) {
        var op = c.genericKubernetesResources(ref.apiVersion(), ref.kind());
        return ref.namespace() == null ? op : op.inNamespace(ref.namespace());
    }
}
