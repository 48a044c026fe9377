package dev.rekon.testing.knative;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;

/** PingSource objects for the tests, and the status Knative's PingSource controller would give them. */
public final class PingSources {

    private PingSources() {
    }

    /**
     * Creates a PingSource with the shipped resync's data on {@code schedule} (robfig/cron, e.g. "@every 3s") and
     * marks it Ready with {@code sinkUri}, as Knative's controller does once its sink resolves.
     */
    public static GenericKubernetesResource ready(KubernetesClient admin, String namespace, String name,
            String schedule, String data, String sinkUri) {
        GenericKubernetesResource ping = Serialization.unmarshal("""
                {"apiVersion": "sources.knative.dev/v1", "kind": "PingSource",
                 "metadata": {"name": "%s", "namespace": "%s"},
                 "spec": {"schedule": "%s", "contentType": "application/json", "data": %s,
                   "sink": {"uri": "%s"}}}
                """.formatted(name, namespace, schedule, Serialization.asJson(data), sinkUri),
                GenericKubernetesResource.class);
        ping = admin.resource(ping).createOr(p -> p.update());
        List<Map<String, String>> conditions = List.of("Ready", "SinkProvided", "Deployed", "OIDCIdentityCreated")
                .stream().map(t -> Map.of("type", t, "status", "True")).toList();
        ping.setAdditionalProperty("status", Map.of("observedGeneration", ping.getMetadata().getGeneration(),
                "sinkUri", sinkUri, "conditions", conditions));
        return admin.resource(ping).updateStatus();
    }
}
