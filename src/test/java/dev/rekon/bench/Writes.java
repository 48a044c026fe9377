package dev.rekon.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.rekon.testing.Kpack;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Counts API writes in a namespace through the apiserver itself: the resourceVersion of every Deployment and
 * ImageDeploy, the number of Events, and etcd's revision (a quorum list answers with it; every write in the
 * cluster raises it, the apiserver's own lease renewals included).
 */
public record Writes(Map<String, String> versions, int events, long revision) {

    public static Writes count(KubernetesClient k8s, String ns) {
        return count(k8s, List.of(ns));
    }

    /** The same over several namespaces. */
    public static Writes count(KubernetesClient k8s, List<String> namespaces) {
        Map<String, String> v = new HashMap<>();
        int events = 0;
        for (String ns : namespaces) {
            k8s.apps().deployments().inNamespace(ns).list().getItems().forEach(d -> put(v, d));
            k8s.genericKubernetesResources(Kpack.IMAGE_DEPLOYS).inNamespace(ns).list().getItems().forEach(d -> put(v, d));
            events += k8s.v1().events().inNamespace(ns).list().getItems().size();
        }
        long revision = Long.parseLong(k8s.namespaces().list().getMetadata().getResourceVersion());
        return new Writes(v, events, revision);
    }

    /** The count once nothing in the namespace has changed for a second (at most 60 s of waiting). */
    public static Writes settled(KubernetesClient k8s, String ns) {
        return settled(k8s, List.of(ns));
    }

    /** The same over several namespaces. */
    public static Writes settled(KubernetesClient k8s, List<String> namespaces) {
        Writes last = count(k8s, namespaces);
        for (int i = 0; i < 60; i++) {
            SecondApiServer.sleep(1000);
            Writes now = count(k8s, namespaces);
            if (now.objectWritesSince(last) == 0) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static void put(Map<String, String> v, HasMetadata o) {
        v.put(o.getKind() + "/" + o.getMetadata().getNamespace() + "/" + o.getMetadata().getName(), o.getMetadata().getResourceVersion());
    }

    /** Objects created or changed since {@code before}, plus Events recorded since. */
    public int objectWritesSince(Writes before) {
        int n = events - before.events;
        for (var e : versions.entrySet()) {
            if (!e.getValue().equals(before.versions.get(e.getKey()))) {
                n++;
            }
        }
        return n;
    }
}
