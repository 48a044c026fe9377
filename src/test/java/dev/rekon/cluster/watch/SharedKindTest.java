package dev.rekon.cluster.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.Versioned;
import dev.rekon.core.NamespacePolicy;
import dev.rekon.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * One watch serves every facet of a kind: each facet finds only its own views by its own keys, an object no facet
 * reads is held as its identity alone, and a facet naming the kind another way is refused instead of opening a
 * second watch.
 */
class SharedKindTest {

    static final WatchedKindId KIND = WatchedKindId.namespaced("apps", "v1", "deployments", "Deployment");
    static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the label {@code team}, found by its value. */
    static class Teams implements WatchFacet<String> {
        @Override
        public WatchedKindId kind() {
            return KIND;
        }

        @Override
        public String view(JsonNode o) {
            return o.path("metadata").path("labels").path("team").asText(null);
        }

        @Override
        public Collection<String> indexKeys(String team) {
            return List.of(team);
        }
    }

    /** Reads the object's name when it is labelled {@code managed}, found by name. */
    static final class Managed implements WatchFacet<String> {
        @Override
        public WatchedKindId kind() {
            return KIND;
        }

        @Override
        public String view(JsonNode o) {
            JsonNode meta = o.path("metadata");
            return meta.path("labels").has("managed") ? meta.path("name").asText() : null;
        }

        @Override
        public Collection<String> indexKeys(String name) {
            return List.of(name);
        }
    }

    final List<String> informers = new ArrayList<>();
    final List<ItemStore<GenericKubernetesResource>> stores = new ArrayList<>();

    @Test
    void eachFacetFindsItsOwnViewsOfTheOneWatch() {
        Teams teams = new Teams();
        Managed managed = new Managed();
        SharedKind kind = new SharedKind(KIND, List.of(teams, managed), NamespacePolicy.parse("*"),
                (ns, name) -> informer(ns), r -> JSON.valueToTree(r), ns -> List.of());
        FacetViews<String> byTeam = new FacetViews<>(kind, kind.indexOf(teams));
        FacetViews<String> byName = new FacetViews<>(kind, kind.indexOf(managed));
        Await.until("the watch has synced", () -> byTeam.cached(null, null).isPresent());
        put("a", Map.of("team", "blue", "managed", "yes"));
        put("b", Map.of("team", "blue"));
        put("c", Map.of());

        assertEquals(List.of("*"), informers, "one watch, cluster-wide");
        assertEquals(List.of("blue", "blue"), views(byTeam.cached(null, List.of("blue")).orElseThrow()));
        assertEquals(List.of("a"), views(byName.cached(null, null).orElseThrow()), "only what the facet reads");
        assertEquals(List.of(), views(byName.cached(null, List.of("blue")).orElseThrow()), "keys are per facet");
        assertEquals(3, stores.get(0).size(), "the informer still knows every object, c by its identity alone");
    }

    @Test
    void thisProcessesOwnWritesStandInForTheFacetsViewsUntilTheWatchShowsThem() {
        Managed managed = new Managed();
        SharedKind kind = new SharedKind(KIND, List.of(managed), NamespacePolicy.parse("*"),
                (ns, name) -> informer(ns), r -> JSON.valueToTree(r), ns -> List.of());
        FacetViews<String> byName = new FacetViews<>(kind, kind.indexOf(managed));
        Await.until("the watch has synced", () -> byName.cached(null, null).isPresent());
        put("a", Map.of("managed", "yes"), "5");

        byName.wrote("ns", "a", "7", "a as written");
        assertEquals(List.of("a as written"), byName.latest("ns", List.of("a")).orElseThrow());
        assertEquals(List.of("a"), views(byName.cached("ns", List.of("a")).orElseThrow()), "the watch's own view");
        put("a", Map.of("managed", "yes"), "8");
        assertEquals(List.of("a"), byName.latest("ns", List.of("a")).orElseThrow(), "caught up: the watch's again");

        byName.wrote("ns", "n", "9", "n");
        assertEquals(List.of(), byName.latest("ns", List.of("n")).orElseThrow(), "not shown yet: added only if asked");
        assertEquals(List.of("n"), byName.latestWithUnseen("ns", List.of("n")).orElseThrow());
        assertEquals(List.of(), byName.latestWithUnseen("other", List.of("n")).orElseThrow(), "only where it is");
        assertEquals(List.of("a", "n"), byName.latestOrListed(null, null).stream().sorted().toList());

        assertEquals(Optional.of("n"), byName.writtenAfter("ns", "n", "8"));
        assertEquals(Optional.empty(), byName.writtenAfter("ns", "n", "9"), "the version given is as new");

        byName.wrote("ns", "a", "10", null);
        assertEquals(List.of(), byName.latest("ns", List.of("a")).orElseThrow(), "a deletion hides the watched one");
        byName.seen("ns", "a", "12");
        assertTrue(byName.latest("ns", List.of("a")).isEmpty(), "known newer, view unknown: the caller reads it");
        put("a", Map.of("managed", "yes"), "12");
        assertEquals(List.of("a"), byName.latest("ns", List.of("a")).orElseThrow());
    }

    @Test
    void aFacetNamingTheKindAnotherWayIsRefused() {
        SharedWatches watches = SharedWatches.standalone(null, JSON, NamespacePolicy.parse("*"), List.of(new Teams()));
        watches.of(new Teams());
        WatchFacet<String> otherVersion = new Teams() {
            @Override
            public WatchedKindId kind() {
                return WatchedKindId.namespaced("apps", "v1beta1", "deployments", "Deployment");
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> watches.of(otherVersion));
        assertTrue(e.getMessage().contains("one watch serves every facet of a kind"), e.getMessage());
    }

    private static List<String> views(List<Versioned<String>> found) {
        return found.stream().map(Versioned::view).sorted().toList();
    }

    private void put(String name, Map<String, String> labels) {
        put(name, labels, "1");
    }

    private void put(String name, Map<String, String> labels, String resourceVersion) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion("apps/v1");
        r.setKind("Deployment");
        r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").withLabels(labels)
                .withResourceVersion(resourceVersion).build());
        stores.get(0).put("ns/" + name, r);
    }

    @SuppressWarnings("unchecked")
    private SharedIndexInformer<GenericKubernetesResource> informer(String namespace) {
        informers.add(namespace == null ? "*" : namespace);
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        return (SharedIndexInformer<GenericKubernetesResource>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SharedIndexInformer.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "itemStore" -> {
                        stores.add((ItemStore<GenericKubernetesResource>) args[0]);
                        yield proxy;
                    }
                    case "start" -> CompletableFuture.completedFuture(null);
                    case "stop" -> stopped.complete(null);
                    case "stopped" -> stopped;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
