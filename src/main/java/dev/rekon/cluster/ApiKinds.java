package dev.rekon.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The kinds the API server serves, from its discovery documents: a kind's plural (its URL path) and whether it
 * is namespaced, and every namespaced kind that can be listed. One discovery read per group version, kept; a
 * kind not found reads its group version again once (its CRD may have been installed since).
 */
@Singleton
public class ApiKinds {

    /** A served kind: its group version, kind, plural and scope. */
    public record Kind(String apiVersion, String kind, String plural, boolean namespaced) {

        /** The URL path of one object of this kind (namespace ignored for a cluster-scoped kind). */
        public String path(String namespace, String name) {
            return listPath(namespace) + "/" + name;
        }

        /** The URL path of this kind's objects in {@code namespace}; in every namespace when it is null. */
        public String listPath(String namespace) {
            return TreeCalls.listPath(apiVersion, plural, namespaced ? namespace : null);
        }
    }

    private static final int SERVED_SECONDS = 30;

    private final Map<String, List<Kind>> byGroupVersion = new ConcurrentHashMap<>();
    private volatile Served served;

    @Inject
    KubernetesClient client;

    public static ApiKinds of(KubernetesClient client) {
        ApiKinds kinds = new ApiKinds();
        kinds.client = client;
        return kinds;
    }

    public Optional<Kind> kind(String apiVersion, String kind) {
        Optional<Kind> found = find(byGroupVersion.computeIfAbsent(apiVersion, this::read), kind);
        if (found.isPresent()) {
            return found;
        }
        List<Kind> again = read(apiVersion);
        byGroupVersion.put(apiVersion, again);
        return find(again, kind);
    }

    /**
     * Whether the kind was served when its group version was last read, reading nothing (a page's question); true
     * when it was never read here.
     */
    public boolean servedAsLastRead(String apiVersion, String kind) {
        List<Kind> kinds = byGroupVersion.get(apiVersion);
        return kinds == null || find(kinds, kind).isPresent();
    }

    /**
     * Every kind the server serves that can be listed and deleted, in each group's preferred version: one read of
     * every discovery document, kept for {@value #SERVED_SECONDS} s (CRDs come and go; a pass that needs a kind
     * just installed finds it by {@link #kind}).
     */
    public List<Kind> served() {
        Served s = served;
        if (s != null && System.nanoTime() - s.at() < SERVED_SECONDS * 1_000_000_000L) {
            return s.kinds();
        }
        List<Kind> out = new ArrayList<>();
        List<String> groupVersions = new ArrayList<>();
        groupVersions.add("v1");
        KubeErrors.call("discover the API groups", () -> client.getApiGroups()).getGroups().stream()
                .map(APIGroup::getPreferredVersion).filter(v -> v != null).forEach(v -> groupVersions.add(v.getGroupVersion()));
        for (String gv : groupVersions) {
            List<Kind> kinds = read(gv);
            byGroupVersion.put(gv, kinds);
            out.addAll(kinds);
        }
        served = new Served(List.copyOf(out), System.nanoTime());
        return served.kinds();
    }

    private record Served(List<Kind> kinds, long at) {
    }

    private static Optional<Kind> find(List<Kind> kinds, String kind) {
        return kinds.stream().filter(k -> k.kind().equals(kind)).findFirst();
    }

    private List<Kind> read(String apiVersion) {
        APIResourceList list = KubeErrors.call("discover " + apiVersion, () -> client.getApiResources(apiVersion));
        if (list == null || list.getResources() == null) {
            return List.of();
        }
        List<Kind> kinds = new ArrayList<>();
        for (APIResource r : list.getResources()) {
            if (r.getName().contains("/") || r.getVerbs() == null || !r.getVerbs().contains("list")
                    || !r.getVerbs().contains("delete")) {
                continue;
            }
            kinds.add(new Kind(apiVersion, r.getKind(), r.getName(), Boolean.TRUE.equals(r.getNamespaced())));
        }
        return kinds;
    }
}
