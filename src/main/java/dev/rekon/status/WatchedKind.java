package dev.rekon.status;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.cluster.ViewStore;
import dev.rekon.cluster.WatchedViews;
import dev.rekon.core.NamespacePolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The views of one kind the status page shows, kept by watches where the namespace policy lets Rekon look (one
 * per allowed namespace, or one across all; cluster-scoped kinds only when they are allowed), each object
 * converted once when its watch delivers it. A watch that cannot run is named in {@code unavailable} and tried
 * again at most every 30 s; its rows are missing, never read from the apiserver on a request.
 */
final class WatchedKind<V> {

    static final String EVERYWHERE = "*";

    private final String what;
    private final boolean namespaced;
    private final boolean everywhere;
    private final NamespacePolicy policy;
    private final WatchedViews<V> watches;

    /**
     * @param label      only objects with this label ({@code key} for any value, or {@code key=value}), or null
     * @param everywhere watch every namespace whatever the policy (inputs such as Kyma's module objects)
     */
    WatchedKind(String what, KubernetesClient client, ObjectMapper mapper, ResourceDefinitionContext context,
            String label, boolean everywhere, NamespacePolicy policy, Function<JsonNode, V> toView) {
        this.what = what;
        this.namespaced = Boolean.TRUE.equals(context.isNamespaceScoped());
        this.everywhere = everywhere;
        this.policy = policy;
        this.watches = new WatchedViews<>(what, key -> {
            var op = client.genericKubernetesResources(context);
            var scoped = !namespaced ? op : EVERYWHERE.equals(key) ? op.inAnyNamespace() : op.inNamespace(key);
            String[] kv = label == null ? null : label.split("=", 2);
            return (kv == null ? scoped : kv.length == 1 ? scoped.withLabel(kv[0]) : scoped.withLabel(kv[0], kv[1]))
                    .runnableInformer(0);
        }, r -> toView.apply(mapper.valueToTree(r)), v -> List.of());
    }

    /**
     * Every view the watches hold, waiting for watches still starting until {@code deadline} (nanoTime); names
     * what could not be watched in {@code unavailable}, and what is still loading in {@code loading}.
     */
    List<V> views(List<String> unavailable, List<String> loading, long deadline) {
        List<V> out = new ArrayList<>();
        for (String key : keys()) {
            long left = Math.max(0, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            ViewStore<V> store = watches.get(key, java.time.Duration.ofMillis(left));
            if (store == null && watches.loading(key)) {
                loading.add(what + (EVERYWHERE.equals(key) ? "" : " in " + key));
            } else if (store == null) {
                unavailable.add(what + (EVERYWHERE.equals(key) ? "" : " in " + key)
                        + ": no watch (see the log), so they are missing here");
            } else {
                store.find(null, null).forEach(v -> out.add(v.view()));
            }
        }
        return out;
    }

    private List<String> keys() {
        if (!namespaced) {
            return policy.allows(null) ? List.of(EVERYWHERE) : List.of();
        }
        return everywhere || policy.everyNamespace() ? List.of(EVERYWHERE) : policy.across(ns -> List.of(ns), () -> List.<String>of());
    }

    void stop() {
        watches.stopAll();
    }
}
