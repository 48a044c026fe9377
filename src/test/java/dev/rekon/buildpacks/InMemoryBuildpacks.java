package dev.rekon.buildpacks;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.apply.KpackStatusBody;
import dev.rekon.buildpacks.catalog.BuilderIndex;
import dev.rekon.buildpacks.catalog.BuildpackCatalog;
import dev.rekon.buildpacks.plan.AffectedBuilders;
import dev.rekon.buildpacks.plan.KpackStatus;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.BuilderView;
import dev.rekon.buildpacks.view.BuildpackSource;
import dev.rekon.buildpacks.view.BuildpackView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.cluster.Versioned;
import dev.rekon.core.ObjectRef;
import dev.rekon.registry.DockerConfig;
import dev.rekon.testing.Failures;

/**
 * Rekon's {@link BuildpackGateway}, {@link BuildpackCatalog} and {@link BuilderIndex} over one map of kpack
 * objects, for service tables: status patches are merged as JSON merge patches, checked against the
 * resourceVersion they name (a stale one is a 409) and logged in order; image reads come from a map.
 */
final class InMemoryBuildpacks implements BuildpackGateway, BuildpackCatalog, BuilderIndex {

    final Map<String, ObjectNode> objects = new LinkedHashMap<>();
    final Map<String, ImageRead> images = new HashMap<>();
    final List<String> writes = new ArrayList<>();
    final List<String> imageReads = new ArrayList<>();
    final List<String> heads = new ArrayList<>();
    /** Images whose registry does not answer: every HEAD of one fails transiently. */
    final java.util.Set<String> unreachable = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Map<String, Deque<Optional<RuntimeException>>> failNext = new HashMap<>();
    private long version = 100;

    InMemoryBuildpacks put(ObjectNode object) {
        ((ObjectNode) object.get("metadata")).put("resourceVersion", String.valueOf(++version));
        objects.put(key(object.path("kind").asText(), object.at("/metadata/namespace").asText(null),
                object.at("/metadata/name").asText()), object);
        return this;
    }

    /** The next write ({@code "status"}) or image read ({@code "read"}) fails so; null lets it pass. */
    InMemoryBuildpacks failNext(String operation, RuntimeException failure) {
        failNext.computeIfAbsent(operation, k -> new ArrayDeque<>()).add(Optional.ofNullable(failure));
        return this;
    }

    @Override
    public Optional<Versioned<BuildpackView>> buildpack(String kind, String namespace, String name) {
        return get(kind, namespace, name).map(j -> Versioned.of(j, BuildpackView::of));
    }

    @Override
    public Optional<Versioned<BuilderView>> builder(String kind, String namespace, String name) {
        return get(kind, namespace, name).map(j -> Versioned.of(j, BuilderView::of));
    }

    private Optional<JsonNode> get(String kind, String namespace, String name) {
        return Optional.ofNullable(objects.get(key(kind, namespace, name))).map(ObjectNode::deepCopy);
    }

    @Override
    public String patchStatus(ObjectRef target, KpackStatus.Patch written, String resourceVersion) {
        ObjectNode statusPatch = KpackStatusBody.status(written);
        ObjectNode live = objects.get(key(target.kind(), target.namespace(), target.name()));
        RuntimeException failure = next("status");
        writes.add("status " + target + (failure != null ? " (failed)" : ""));
        if (failure != null) {
            throw failure;
        }
        if (live == null || resourceVersion != null && !resourceVersion.equals(live.at("/metadata/resourceVersion").asText())) {
            writes.set(writes.size() - 1, writes.get(writes.size() - 1) + " (conflict)");
            throw Failures.conflict("writing the status of " + target);
        }
        ObjectNode status = live.has("status") ? (ObjectNode) live.get("status") : live.putObject("status");
        statusPatch.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                status.remove(e.getKey());
            } else {
                status.set(e.getKey(), e.getValue().deepCopy());
            }
        });
        String after = String.valueOf(++version);
        ((ObjectNode) live.get("metadata")).put("resourceVersion", after);
        return after;
    }

    @Override
    public ImageRead readBuildpackage(String image, String saNamespace, String saName) {
        imageReads.add(image);
        RuntimeException failure = next("read");
        if (failure != null) {
            throw failure;
        }
        return images.getOrDefault(image, new ImageRead.Unreadable("ImageNotFound", image + " does not exist"));
    }

    @Override
    public Optional<DockerConfig> pullSecrets(String namespace, String name) {
        return Optional.of(DockerConfig.empty());
    }

    /** A HEAD answers with the digest of the image a full read would give. */
    @Override
    public ImageHead headDigest(String image, Optional<DockerConfig> credentials, String saNamespace, String saName) {
        heads.add(image);
        if (unreachable.contains(image)) {
            throw new dev.rekon.core.TransientFailureException(image + ": registry unreachable", null);
        }
        RuntimeException failure = next("head");
        if (failure != null) {
            throw failure;
        }
        ImageRead read = images.getOrDefault(image, new ImageRead.Unreadable("ImageNotFound", image + " does not exist"));
        return read instanceof ImageRead.Found f ? new ImageHead.Digest(f.image().digest())
                : new ImageHead.Unreadable(((ImageRead.Unreadable) read).reason(), ((ImageRead.Unreadable) read).message());
    }

    @Override
    public List<RecheckView> rechecks(String namespace) {
        return java.util.stream.Stream.concat(inNamespace(BuildpackSource.BUILDPACK, namespace),
                namespace == null ? ofKind(BuildpackSource.CLUSTER_BUILDPACK) : java.util.stream.Stream.empty())
                .map(o -> RecheckView.of(BuildpackView.of(o))).toList();
    }

    @Override
    public List<Versioned<BuilderView>> all(String namespace) {
        return java.util.stream.Stream.concat(inNamespace(BuilderView.BUILDER, namespace),
                namespace == null ? ofKind(BuilderView.CLUSTER_BUILDER) : java.util.stream.Stream.empty())
                .map(InMemoryBuildpacks::versioned).toList();
    }

    private java.util.stream.Stream<ObjectNode> inNamespace(String kind, String namespace) {
        return ofKind(kind).filter(o -> namespace == null || namespace.equals(o.at("/metadata/namespace").asText()));
    }

    @Override
    public List<BuildpackSource> sources(String kind, String namespace) {
        return inNamespace(kind, namespace).map(o -> BuildpackView.of(o).asSource()).toList();
    }

    @Override
    public List<Cataloged> naming(String repositoryKey) {
        return java.util.stream.Stream.concat(ofKind(BuildpackSource.BUILDPACK), ofKind(BuildpackSource.CLUSTER_BUILDPACK))
                .map(BuildpackView::of).map(v -> new Cataloged(v.asSource(), AffectedBuilders.repositoryOf(v.image())))
                .filter(c -> repositoryKey.equals(c.repository())).toList();
    }

    @Override
    public void knows(BuildpackSource source, String image, String resourceVersion) {
        // The map is the cluster itself: never behind.
    }

    @Override
    public void gone(BuildpackSource source) {
        // The map is the cluster itself: never behind.
    }

    @Override
    public List<Versioned<BuilderView>> candidates(BuildpackSource changed, Collection<String> keys) {
        boolean cluster = BuildpackSource.CLUSTER_BUILDPACK.equals(changed.kind());
        return java.util.stream.Stream.concat(ofKind(BuilderView.BUILDER), ofKind(BuilderView.CLUSTER_BUILDER))
                .filter(o -> cluster || changed.namespace().equals(o.at("/metadata/namespace").asText()))
                .map(InMemoryBuildpacks::versioned).toList();
    }

    @Override
    public List<Versioned<BuilderView>> namingRepository(String repositoryKey) {
        return java.util.stream.Stream.concat(ofKind(BuilderView.BUILDER), ofKind(BuilderView.CLUSTER_BUILDER))
                .map(InMemoryBuildpacks::versioned)
                .filter(v -> v.view().images().stream().anyMatch(i -> repositoryKey.equals(AffectedBuilders.repositoryOf(i))))
                .toList();
    }

    private java.util.stream.Stream<ObjectNode> ofKind(String kind) {
        return objects.values().stream().filter(o -> kind.equals(o.path("kind").asText())).map(ObjectNode::deepCopy);
    }

    private static Versioned<BuilderView> versioned(ObjectNode o) {
        return new Versioned<>(o.at("/metadata/resourceVersion").asText(), BuilderView.of(o));
    }

    private RuntimeException next(String operation) {
        Deque<Optional<RuntimeException>> scripted = failNext.get(operation);
        Optional<RuntimeException> next = scripted == null ? null : scripted.poll();
        return next == null ? null : next.orElse(null);
    }

    private static String key(String kind, String namespace, String name) {
        return kind + "/" + (namespace == null ? "" : namespace) + "/" + name;
    }
}
