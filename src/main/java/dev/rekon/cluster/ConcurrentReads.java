package dev.rekon.cluster;

import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.rekon.core.ObjectRef;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

/**
 * Reads of single objects sent at once instead of one after another, over a client's own HTTP client (its
 * credentials, interceptors and metrics): a plan that must read a handful of objects in other clusters waits about
 * one round trip per cluster instead of one per object. Only the happy answers are taken from the concurrent request
 * (the object, or a 404: none); any other outcome is read again through {@link KubeErrors#call}, so that its failure
 * is sorted, and a closed connection resent, exactly as every other read's.
 */
public final class ConcurrentReads {

    private static final long TIMEOUT_SECONDS = 10;

    private ConcurrentReads() {
    }

    /** A read on its way; {@link #join} answers the object, null when there is none, or throws as a read does. */
    public record Pending<T>(CompletableFuture<HttpResponse<String>> sent, KubernetesClient client, Class<T> type,
            ObjectRef ref, String what, Supplier<T> again) {

        public T join() {
            HttpResponse<String> answer = null;
            try {
                answer = sent.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // Sorted by the read made again below.
            }
            if (answer != null && answer.code() == 404) {
                return null;
            }
            if (answer != null && answer.isSuccessful()) {
                return client.getKubernetesSerialization().unmarshal(answer.body(), type);
            }
            return KubeErrors.call(ref, what, again);
        }
    }

    /**
     * Sends the read of {@code ref} (a namespaced object of {@code resource}) now; {@code again} is the same read made
     * the usual way, for any answer but the object or a 404.
     */
    public static <T> Pending<T> get(KubernetesClient client, ResourceDefinitionContext resource, ObjectRef ref,
            Class<T> type, String what, Supplier<T> again) {
        CompletableFuture<HttpResponse<String>> sent;
        try {
            HttpRequest request = client.getHttpClient().newHttpRequestBuilder()
                    .uri(URI.create(client.getMasterUrl().toString().replaceAll("/+$", "") + "/" + path(resource, ref)))
                    .header("Accept", "application/json").timeout(TIMEOUT_SECONDS, TimeUnit.SECONDS).build();
            sent = client.getHttpClient().sendAsync(request, String.class);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        return new Pending<>(sent, client, type, ref, what, again);
    }

    /** A read a watch answered already: {@link Pending#join} gives {@code value} (null: none), with no call. */
    public static <T> Pending<T> answered(T value) {
        return new Pending<>(CompletableFuture.completedFuture(null), null, null, null, "answered", () -> value);
    }

    static String path(ResourceDefinitionContext resource, ObjectRef ref) {
        String group = resource.getGroup() == null || resource.getGroup().isEmpty() ? "api/" + resource.getVersion()
                : "apis/" + resource.getGroup() + "/" + resource.getVersion();
        return group + "/namespaces/" + ref.namespace() + "/" + resource.getPlural() + "/" + ref.name();
    }
}
