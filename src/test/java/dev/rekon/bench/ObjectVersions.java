package dev.rekon.bench;

import java.util.HashMap;
import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The resourceVersion of every object of a bench module's kinds in a namespace, read from the apiserver: what a
 * pass changed, created and deleted there, whoever made the calls.
 */
record ObjectVersions(Map<String, String> versions) {

    static ObjectVersions of(KubernetesClient k8s, String ns) {
        Map<String, String> v = new HashMap<>();
        k8s.configMaps().inNamespace(ns).list().getItems().forEach(o -> put(v, o));
        k8s.serviceAccounts().inNamespace(ns).list().getItems().forEach(o -> put(v, o));
        k8s.services().inNamespace(ns).list().getItems().forEach(o -> put(v, o));
        k8s.apps().deployments().inNamespace(ns).list().getItems().forEach(o -> put(v, o));
        return new ObjectVersions(v);
    }

    private static void put(Map<String, String> v, HasMetadata o) {
        v.put(o.getKind() + "/" + o.getMetadata().getName(), o.getMetadata().getResourceVersion());
    }

    int size() {
        return versions.size();
    }

    /** Objects there before and after with another resourceVersion. */
    int changedSince(ObjectVersions before) {
        return (int) versions.entrySet().stream().filter(e -> before.versions.containsKey(e.getKey())
                && !before.versions.get(e.getKey()).equals(e.getValue())).count();
    }

    int deletedSince(ObjectVersions before) {
        return (int) before.versions.keySet().stream().filter(k -> !versions.containsKey(k)).count();
    }
}
