package dev.rekon.manifests.apply;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.cluster.ApiKinds;
import dev.rekon.cluster.FieldManager;
import dev.rekon.cluster.KubeErrors;
import dev.rekon.cluster.TreeCalls;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.KindNotServedException;
import dev.rekon.core.NotFoundException;
import dev.rekon.core.TransientFailureException;
import dev.rekon.manifests.Identity;
import dev.rekon.manifests.LiveObject;
import dev.rekon.manifests.ManifestObjects;
import dev.rekon.manifests.plan.WriteResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * An owner's manifest objects on the Kubernetes API, all as one identity (the client given): read with one list
 * per kind and namespace by the owner's label, and, for the objects that list did not find (to tell a free name
 * from someone else's object), one GET each, or one list of the kind when more than a few are missing; when the
 * owner's inventory already says more than a few are new (an install), that one list alone; applied server-side;
 * deleted guarded by the uid and resourceVersion seen.
 */
public final class KubeManifestObjects implements ManifestCluster {

    /** Objects per page of a metadata list, as the watches list: a fleet's kind is never one response. */
    static final int PAGE = 500;

    private static final Duration ESTABLISHED_WAIT = Duration.ofSeconds(20);
    /** Objects of one kind and namespace not found by label read one by one; more are read with one list. */
    private static final int GETS_PER_KIND = 4;

    private final KubernetesClient client;
    private final ObjectMapper json;
    private final String ownerLabel;
    private final ApiKinds kinds;
    private final TreeCalls calls;

    /**
     * @param client     the identity every read and write is made as
     * @param ownerLabel the label that names an object's owner ({@code rekon.dev/module}, ...)
     */
    public KubeManifestObjects(KubernetesClient client, ObjectMapper json, String ownerLabel, ApiKinds kinds) {
        this.client = client;
        this.json = json;
        this.ownerLabel = ownerLabel;
        this.kinds = kinds;
        this.calls = TreeCalls.on(client, json);
    }

    @Override
    public Map<String, LiveObject> live(String owner, Collection<ObjectRef> refs) {
        return live(owner, refs, null);
    }

    /** {@code recorded} null: not known, every object may carry the owner's label. */
    @Override
    public Map<String, LiveObject> live(String owner, Collection<ObjectRef> refs, Set<String> recorded) {
        Map<String, LiveObject> live = new LinkedHashMap<>();
        Map<String, List<ObjectRef>> byKindAndNamespace = refs.stream().collect(Collectors.groupingBy(
                r -> r.apiVersion() + "|" + r.kind() + "|" + (r.namespace() == null ? "" : r.namespace()),
                LinkedHashMap::new, Collectors.toList()));
        for (List<ObjectRef> group : byKindAndNamespace.values()) {
            ObjectRef first = group.get(0);
            if (recorded != null
                    && group.stream().filter(r -> !recorded.contains(Identity.key(r))).count() > GETS_PER_KIND) {
                // An install: the label finds none of the new objects and the kind would be listed after it anyway;
                // one list of the kind answers both (what the owner's label names, and who has the new names).
                Set<String> wanted = group.stream().map(Identity::key).collect(Collectors.toSet());
                listAll(first).stream().filter(l -> owner.equals(l.owner()) || wanted.contains(Identity.key(l.ref())))
                        .forEach(l -> put(live, l));
                continue;
            }
            listLabelled(first, owner).forEach(l -> put(live, l));
            List<ObjectRef> missing = group.stream().filter(r -> !live.containsKey(Identity.key(r))).toList();
            if (missing.size() > GETS_PER_KIND) {
                // An install: one list of the kind beats a GET per object (300 objects: 1 call, not 300).
                Set<String> wanted = missing.stream().map(Identity::key).collect(Collectors.toSet());
                listAll(first).stream().filter(l -> wanted.contains(Identity.key(l.ref()))).forEach(l -> put(live, l));
            } else {
                missing.stream().map(this::get).filter(Objects::nonNull).forEach(r -> put(live, liveOf(r)));
            }
        }
        return live;
    }

    @Override
    public List<LiveObject> all(ObjectRef kind) {
        return listAll(kind);
    }

    @Override
    public List<LiveObject> metadata(ObjectRef kind) {
        List<LiveObject> out = new ArrayList<>();
        metadata(kind, out::add);
        return out;
    }

    @Override
    public void metadata(ObjectRef kind, Consumer<LiveObject> each) {
        ApiKinds.Kind served = kinds.kind(kind.apiVersion(), kind.kind()).orElse(null);
        if (served == null) {
            return;
        }
        String path = served.listPath(kind.namespace()) + "?limit=" + PAGE;
        String what = "list " + kind.kind() + (kind.namespace() == null ? "" : " in " + kind.namespace());
        String next = "";
        do {
            String page = path + (next.isEmpty() ? "" : "&continue=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
            JsonNode list = unlessUnserved(kind, what, () -> calls.metadataList(page), null);
            if (list == null) {
                return;
            }
            for (JsonNode item : list.path("items")) {
                ObjectNode o = json.createObjectNode().put("apiVersion", kind.apiVersion()).put("kind", kind.kind());
                o.set("metadata", item.path("metadata"));
                JsonNode meta = item.path("metadata");
                ObjectRef ref = new ObjectRef(kind.apiVersion(), kind.kind(), meta.path("namespace").asText(null),
                        meta.path("name").asText());
                each.accept(new LiveObject(ref, meta.path("labels").path(ownerLabel).asText(null), o));
            }
            next = list.path("metadata").path("continue").asText("");
        } while (!next.isEmpty());
    }

    private static ObjectRef refOf(GenericKubernetesResource r) {
        return new ObjectRef(r.getApiVersion(), r.getKind(), r.getMetadata().getNamespace(), r.getMetadata().getName());
    }

    private LiveObject liveOf(GenericKubernetesResource r) {
        String owner = r.getMetadata().getLabels() == null ? null : r.getMetadata().getLabels().get(ownerLabel);
        return new LiveObject(refOf(r), owner, json.valueToTree(r));
    }

    private LiveObject liveOf(ObjectNode o) {
        return new LiveObject(ManifestObjects.ref(o), o.path("metadata").path("labels").path(ownerLabel).asText(null), o);
    }

    private static void put(Map<String, LiveObject> live, LiveObject l) {
        live.put(Identity.key(l.ref()), l);
    }

    private List<LiveObject> listLabelled(ObjectRef kind, String owner) {
        return list(kind, owner, "list " + kind.kind() + " of " + owner);
    }

    private List<LiveObject> listAll(ObjectRef kind) {
        return list(kind, null, "list " + kind.kind() + (kind.namespace() == null ? "" : " in " + kind.namespace()));
    }

    /**
     * Every object of a kind in its namespace ({@code owner}: those its owner label names), read as trees: fabric8's
     * typed list made each object twice (an object, then a tree). A kind discovery does not list goes through
     * fabric8 as before.
     */
    private List<LiveObject> list(ObjectRef kind, String owner, String what) {
        ApiKinds.Kind served = kinds.kind(kind.apiVersion(), kind.kind()).orElse(null);
        if (served == null || served.namespaced() && kind.namespace() == null) {
            List<GenericKubernetesResource> items = unlessUnserved(kind, what, () -> (owner == null ? op(kind)
                    : op(kind).withLabel(ownerLabel, owner)).list().getItems(), List.of());
            return items.stream().map(this::liveOf).toList();
        }
        String path = served.listPath(kind.namespace())
                + (owner == null ? "" : "?labelSelector=" + URLEncoder.encode(ownerLabel + "=" + owner,
                        StandardCharsets.UTF_8));
        JsonNode list = unlessUnserved(kind, what, () -> calls.list(path), null);
        if (list == null) {
            return List.of();
        }
        List<LiveObject> out = new ArrayList<>();
        for (JsonNode item : list.path("items")) {
            if (item instanceof ObjectNode o) {
                out.add(liveOf(o.put("apiVersion", kind.apiVersion()).put("kind", kind.kind())));
            }
        }
        return out;
    }

    private GenericKubernetesResource get(ObjectRef ref) {
        return unlessUnserved(ref, "read " + ref, () -> op(ref).withName(ref.name()).get(), null);
    }

    /** A kind the cluster does not serve yet (its CRD comes with these very manifests) has no objects. */
    private static <T> T unlessUnserved(ObjectRef ref, String what, Supplier<T> call, T none) {
        try {
            return KubeErrors.call(ref, what, call);
        } catch (NotFoundException | KindNotServedException e) {
            return none;
        }
    }

    /** The custom resources of a CRD, in every namespace. */
    public List<ObjectRef> customResources(ObjectRef crdRef) {
        CustomResourceDefinition crd = KubeErrors.call(crdRef, "read " + crdRef,
                () -> client.apiextensions().v1().customResourceDefinitions().withName(crdRef.name()).get());
        if (crd == null) {
            return List.of();
        }
        String version = crd.getSpec().getVersions().stream().filter(v -> Boolean.TRUE.equals(v.getServed()))
                .findFirst().map(v -> v.getName()).orElse(crd.getSpec().getVersions().get(0).getName());
        String apiVersion = crd.getSpec().getGroup() + "/" + version;
        String kind = crd.getSpec().getNames().getKind();
        ObjectRef any = new ObjectRef(apiVersion, kind, null, "");
        return KubeErrors.call(crdRef, "list " + kind, () -> client.genericKubernetesResources(apiVersion, kind)
                .inAnyNamespace().list().getItems()).stream().map(r -> new ObjectRef(apiVersion, kind,
                        r.getMetadata().getNamespace(), r.getMetadata().getName())).filter(r -> !r.equals(any)).toList();
    }

    @Override
    public void apply(ObjectNode object) {
        applied(object);
    }

    @Override
    public WriteResult.Applied applied(ObjectNode object) {
        ObjectRef ref = ManifestObjects.ref(object);
        ApiKinds.Kind kind = kinds.kind(ref.apiVersion(), ref.kind()).orElse(null);
        if (kind != null && (ref.namespace() != null || !kind.namespaced()) && plainMetadata(object.path("metadata"))) {
            // The tree as it is, its answer as a tree: fabric8's typed round trip (tree to object, object to JSON,
            // the answer to an object) was most of an apply's CPU in a fleet pass.
            JsonNode meta = KubeErrors.call(ref, "apply " + ref, () -> calls.serverSideApply(
                    kind.path(ref.namespace(), ref.name()), object.toString())).path("metadata");
            return meta.isMissingNode() ? null
                    : new WriteResult.Applied(meta.path("uid").asText(null), meta.path("resourceVersion").asText(null));
        }
        GenericKubernetesResource r = json.convertValue(object, GenericKubernetesResource.class);
        GenericKubernetesResource answer = KubeErrors.call(ref, "apply " + ref, () -> client.resource(r)
                .fieldManager(FieldManager.NAME).forceConflicts().serverSideApply());
        return answer == null || answer.getMetadata() == null ? null
                : new WriteResult.Applied(answer.getMetadata().getUid(), answer.getMetadata().getResourceVersion());
    }

    /**
     * Metadata the apiserver takes as the manifest gives it: a name, a namespace, labels and annotations, all
     * strings. Anything else (a label written as a number, owner references, finalizers) goes through fabric8's
     * ObjectMeta as before, which turns such values into what the API expects.
     */
    private static boolean plainMetadata(JsonNode meta) {
        for (var it = meta.fields(); it.hasNext();) {
            var field = it.next();
            switch (field.getKey()) {
                case "name", "namespace" -> {
                    if (!field.getValue().isTextual()) {
                        return false;
                    }
                }
                case "labels", "annotations" -> {
                    if (!field.getValue().isObject()) {
                        return false;
                    }
                    for (JsonNode value : field.getValue()) {
                        if (!value.isTextual()) {
                            return false;
                        }
                    }
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void awaitEstablished(ObjectRef crd) {
        long deadline = System.nanoTime() + ESTABLISHED_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            CustomResourceDefinition c = KubeErrors.call(crd, "read " + crd,
                    () -> client.apiextensions().v1().customResourceDefinitions().withName(crd.name()).get());
            if (c != null && c.getStatus() != null && c.getStatus().getConditions() != null && c.getStatus()
                    .getConditions().stream().anyMatch(s -> "Established".equals(s.getType()) && "True".equals(s.getStatus()))) {
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
                + " s; the resources of it wait", null);
    }

    @Override
    public void delete(LiveObject object) {
        ObjectRef ref = object.ref();
        ApiKinds.Kind kind = kinds.kind(ref.apiVersion(), ref.kind()).orElse(null);
        if (kind == null) {
            return; // the kind is no longer served: nothing of it is left to delete
        }
        KubeErrors.call(ref, "delete " + ref, () -> calls.guardedDelete(kind.path(ref.namespace(), ref.name()),
                object.uid(), object.resourceVersion()));
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> op(
            ObjectRef ref) {
        var op = client.genericKubernetesResources(ref.apiVersion(), ref.kind());
        return ref.namespace() == null ? op : op.inNamespace(ref.namespace());
    }
}
