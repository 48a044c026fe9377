package dev.rekon.cluster.watch;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.core.RekonConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Decides that each kind Rekon reads is watched once per scope: the first reader of a kind makes its watch with
 * every {@link WatchFacet} of that kind (events, pushes, resync and the status page each read their own facet of
 * the same objects). A facet that names the kind differently (another version, another scope) is a programming
 * error, refused at once rather than quietly opening a second watch. An object Rekon may watch only by its name has
 * one watch of its own, for every facet of its kind ({@link FacetViews#named}).
 */
@ApplicationScoped
public class SharedWatches {

    static final long LIST_PAGE = 500;

    @Inject
    KubernetesClient client;

    @Inject
    ObjectMapper mapper;

    @Inject
    RekonConfig rekon;

    @Inject
    @Any
    Instance<WatchFacet<?>> facets;

    private final Map<String, SharedKind> kinds = new ConcurrentHashMap<>();
    private KubernetesClient watching;
    private NamespacePolicy policy;
    private List<WatchFacet<?>> given;

    /** Watches outside CDI (tests of one reader): the facets are the ones given, the policy fixed. */
    public static SharedWatches standalone(KubernetesClient client, ObjectMapper mapper, NamespacePolicy policy,
            List<WatchFacet<?>> facets) {
        SharedWatches w = new SharedWatches();
        w.client = client;
        w.mapper = mapper;
        w.policy = policy;
        w.given = List.copyOf(facets);
        return w;
    }

    /** The facet's views of the one watch of its kind (made, not yet started, on first use). */
    public <F> FacetViews<F> of(WatchFacet<F> facet) {
        SharedKind kind = kinds.computeIfAbsent(facet.kind().key(), k -> make(facet.kind()));
        if (!kind.id().equals(facet.kind())) {
            throw new IllegalStateException(facet.getClass().getSimpleName() + " names " + facet.kind()
                    + " but that kind is watched as " + kind.id() + "; one watch serves every facet of a kind");
        }
        return new FacetViews<>(kind, kind.indexOf(facet));
    }

    /**
     * The kinds with a watch of a namespace or of the cluster now (asked for, not stopped as idle since), as
     * group/plural; not a kind whose objects are only watched by name, one watch each.
     */
    public Set<String> kinds() {
        Set<String> out = new TreeSet<>();
        kinds.forEach((key, kind) -> {
            if (kind.watched()) {
                out.add(key);
            }
        });
        return out;
    }

    private SharedKind make(WatchedKindId id) {
        List<WatchFacet<?>> ofKind = (given != null ? given.stream() : facets.stream())
                .filter(f -> f.kind().key().equals(id.key())).toList();
        return new SharedKind(id, ofKind, policy != null ? policy : rekon.namespacePolicy(),
                (ns, name) -> informer(id, ns, name), this::tree, ns -> list(id, ns));
    }

    private JsonNode tree(GenericKubernetesResource r) {
        return r instanceof WatchedObject o ? o.tree() : mapper.valueToTree(r);
    }

    private List<JsonNode> list(WatchedKindId id, String namespace) {
        var op = watching().genericKubernetesResources(id.context());
        return KubeErrors.call("listing " + id.kind() + "s", () -> (namespace != null ? op.inNamespace(namespace).list()
                : id.namespaced() ? op.inAnyNamespace().list() : op.list()).getItems()).stream().map(this::tree)
                .toList();
    }

    /**
     * A watch lists in pages of {@value #LIST_PAGE}: listed whole, the 10,000 Deployments of a fleet were one
     * response, held as one tree until every view was made, a peak of the heap beside everything watched. The watch
     * of one named object selects it by a field selector on {@code metadata.name}: a Role grants {@code list} and
     * {@code watch} by {@code resourceNames} only to a request so selected.
     */
    private SharedIndexInformer<GenericKubernetesResource> informer(WatchedKindId id, String namespace, String name) {
        var op = watching().genericKubernetesResources(id.context());
        if (name != null) {
            return (id.namespaced() ? op.inNamespace(namespace).withField("metadata.name", name)
                    : op.withField("metadata.name", name)).runnableInformer(0);
        }
        if (!id.namespaced()) {
            return op.withLimit(LIST_PAGE).runnableInformer(0);
        }
        return (namespace == null ? op.inAnyNamespace() : op.inNamespace(namespace)).withLimit(LIST_PAGE)
                .runnableInformer(0);
    }

    /**
     * The application's client (its HTTP client, configuration and interceptors) reading with
     * {@link TreeSerialization}: made once, never closed here, since the HTTP client is the application's.
     */
    private synchronized KubernetesClient watching() {
        if (watching == null) {
            watching = new KubernetesClientImpl(client.getHttpClient(), client.getConfiguration(), null,
                    new TreeSerialization());
        }
        return watching;
    }

    @PreDestroy
    public void stop() {
        kinds.values().forEach(SharedKind::stop);
    }
}
