package dev.rekon.cluster.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;

/**
 * A watch updating an object never hides it from a reader of its namespace or its index keys: a DeclaredState
 * missing for an instant from its namespace's list was once taken by a neighbour, planned in parallel, for an orphan.
 */
class ViewStoreTest {

    @Test
    void anObjectBeingUpdatedIsAlwaysFoundByNamespaceAndByKey() throws Exception {
        ViewStore<String> store = new ViewStore<>(o -> o.getMetadata().getName(), name -> List.of("name:" + name));
        store.put("team/a", object("a", 1));
        AtomicBoolean done = new AtomicBoolean();
        Thread watch = new Thread(() -> {
            for (int version = 2; version < 200_000; version++) {
                store.put("team/a", object("a", version));
            }
            done.set(true);
        });
        AtomicInteger missed = new AtomicInteger();
        watch.start();
        while (!done.get()) {
            if (store.find("team", null).isEmpty() || store.find("team", List.of("name:a")).isEmpty()) {
                missed.incrementAndGet();
            }
        }
        watch.join();
        assertEquals(0, missed.get(), "reads that did not find the object while it was updated");
    }

    /** A key of one object, then of two, then of one again, then of none: each read finds exactly those. */
    @Test
    void aKeySharedByObjectsComingAndGoingFindsExactlyThem() {
        ViewStore<String> store = new ViewStore<>(o -> o.getMetadata().getName(), name -> List.of("image:app"));
        store.put("team/a", object("a", 1));
        assertEquals(List.of("a"), names(store));
        store.put("team/b", object("b", 2));
        assertEquals(List.of("a", "b"), names(store));
        store.remove("team/a");
        assertEquals(List.of("b"), names(store));
        store.put("team/a", object("a", 3));
        store.remove("team/b");
        store.remove("team/a");
        assertEquals(List.of(), names(store));
        assertEquals(null, store.get("team/a"));
    }

    /** The informer's identity of an object is made again from what the store keeps. */
    @Test
    void theIdentityTheInformerReadsIsTheObjects() {
        ViewStore<String> store = new ViewStore<>(o -> o.getMetadata().getName(), name -> List.of());
        store.put("team/a", object("a", 7));
        GenericKubernetesResource id = store.get("team/a");
        assertEquals("rekon.dev/v1alpha1 DeclaredState team/a@7", id.getApiVersion() + " " + id.getKind() + " "
                + id.getMetadata().getNamespace() + "/" + id.getMetadata().getName() + "@"
                + id.getMetadata().getResourceVersion());
    }

    private static List<String> names(ViewStore<String> store) {
        return store.find("team", List.of("image:app")).stream().map(f -> f.versioned().view()).sorted().toList();
    }

    private static GenericKubernetesResource object(String name, int version) {
        return new GenericKubernetesResourceBuilder().withApiVersion("rekon.dev/v1alpha1").withKind("DeclaredState")
                .withNewMetadata().withNamespace("team").withName(name).withResourceVersion(String.valueOf(version))
                .endMetadata().build();
    }
}
