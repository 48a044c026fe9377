package dev.rekon.cluster;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.ObjectRef;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

/**
 * API calls whose answer Rekon reads as a JSON tree, sent over the client's own HTTP client (its authentication,
 * TLS and interceptors) but past fabric8's typed model: a Deployment a patch answered went through Jackson three
 * times (bytes → typed Deployment, a clone of the patched item, typed → tree for the view), the largest cost of a
 * warm rollout event after TLS. A failure is fabric8's {@link KubernetesClientException} with the server's status,
 * so {@link KubeErrors} sorts it as any other call's.
 */
@Singleton
public class TreeCalls {

    private final KubernetesClient client;
    private final ObjectMapper mapper;
    /** The apiserver's URL without a trailing slash, taken once: paths are appended to it. */
    private final String base;

    /** Calls on another client than the application's (an impersonating one). */
    public static TreeCalls on(KubernetesClient client, ObjectMapper mapper) {
        return new TreeCalls(client, mapper);
    }

    TreeCalls(KubernetesClient client, ObjectMapper mapper) {
        this.client = client;
        this.mapper = mapper;
        this.base = client.getMasterUrl().toString().replaceAll("/+$", "");
    }

    /**
     * A strategic merge patch of the object at {@code path} (e.g. {@code /apis/apps/v1/namespaces/a/deployments/b}),
     * as field manager {@value FieldManager#NAME}; the object as the server answered it.
     */
    public JsonNode strategicMergePatch(String path, String patch) {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(base + path + "?fieldManager=" + FieldManager.NAME)
                .method("PATCH", OperationSupport.STRATEGIC_MERGE_JSON_PATCH, patch).build();
        return answer(request, send(http, request));
    }

    /**
     * A JSON merge patch of the object {@code ref} names, at {@code path} (its status subresource's too, e.g.
     * {@code .../status}: the one way Rekon writes a status), as field manager {@value FieldManager#NAME}; the object
     * as the server answered it. Guarded by {@code resourceVersion} when given, as the patch's
     * {@code metadata.resourceVersion} (one the patch carries guards it as well): the server answers 409 when the
     * object has moved on. A failure is sorted into Rekon's terms naming {@code ref} ({@link KubeErrors}), described
     * as {@code what}.
     */
    public JsonNode mergePatch(ObjectRef ref, String what, String path, ObjectNode patch, String resourceVersion) {
        if (resourceVersion != null) {
            (patch.get("metadata") instanceof ObjectNode meta ? meta : patch.putObject("metadata"))
                    .put("resourceVersion", resourceVersion);
        }
        String body = patch.toString();
        return KubeErrors.call(ref, what, () -> mergePatch(path, body));
    }

    /**
     * The URL path of one object ({@code /api/v1/...} in the core group, {@code /apis/<group>/<version>/...} else),
     * of a cluster-scoped kind when {@code namespace} is null.
     */
    public static String path(String apiVersion, String plural, String namespace, String name) {
        return listPath(apiVersion, plural, namespace) + "/" + name;
    }

    /** The URL path of a kind's objects in {@code namespace}, or of all of them when it is null. */
    public static String listPath(String apiVersion, String plural, String namespace) {
        String base = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        return base + (namespace != null ? "/namespaces/" + namespace : "") + "/" + plural;
    }

    private JsonNode mergePatch(String path, String patch) {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(base + path + "?fieldManager=" + FieldManager.NAME)
                .method("PATCH", "application/merge-patch+json", patch).build();
        return answer(request, send(http, request));
    }

    /**
     * A server-side apply of {@code object} (JSON, which YAML reads as it is) at its {@code path}, as field manager
     * {@value FieldManager#NAME}, taking back the fields it sets that another manager changed; the object as the
     * server answered it.
     */
    public JsonNode serverSideApply(String path, String object) {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder()
                .uri(base + path + "?fieldManager=" + FieldManager.NAME + "&force=true")
                .method("PATCH", "application/apply-patch+yaml", object).build();
        return answer(request, send(http, request));
    }

    /**
     * Deletes the object at {@code path} if it is still the one seen: DeleteOptions preconditions on its uid and
     * resourceVersion (a 409 when it changed), dependents deleted in the background. False when it was gone.
     */
    public boolean guardedDelete(String path, String uid, String resourceVersion) {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(base + path)
                .method("DELETE", "application/json", deleteOptions(uid, resourceVersion)).build();
        HttpResponse<byte[]> response = send(http, request);
        if (response.code() == 404) {
            return false;
        }
        answer(request, response);
        return true;
    }

    /**
     * The objects of a list path (e.g. {@code /api/v1/secrets}, {@code /apis/apps/v1/namespaces/a/deployments})
     * as metadata only, Kubernetes' {@code PartialObjectMetadataList}: names, labels, owners, uid and
     * resourceVersion, none of the data.
     */
    public JsonNode metadataList(String path) {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(base + path)
                .header("Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json")
                .build();
        return answer(request, send(http, request));
    }

    /**
     * The objects of a list path, whole (e.g. {@code /api/v1/namespaces/a/configmaps?labelSelector=...}), as the
     * server answers them: a list's items name no apiVersion and kind of their own, the list does.
     */
    public JsonNode list(String path) {
        HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(base + path).build();
        return answer(request, send(http, request));
    }

    private String deleteOptions(String uid, String resourceVersion) {
        var options = mapper.createObjectNode().put("kind", "DeleteOptions").put("apiVersion", "v1")
                .put("propagationPolicy", "Background");
        var preconditions = options.putObject("preconditions");
        if (uid != null) {
            preconditions.put("uid", uid);
        }
        if (resourceVersion != null) {
            preconditions.put("resourceVersion", resourceVersion);
        }
        return options.toString();
    }

    private HttpResponse<byte[]> send(HttpClient http, HttpRequest request) {
        try {
            return http.sendAsync(request, byte[].class)
                    .get(client.getConfiguration().getRequestTimeout(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw OperationSupport.requestException(request, e);
        } catch (ExecutionException e) {
            throw OperationSupport.requestException(request, e.getCause() instanceof Exception c ? c : e);
        } catch (TimeoutException e) {
            throw OperationSupport.requestException(request, e);
        }
    }

    private JsonNode answer(HttpRequest request, HttpResponse<byte[]> response) {
        if (!response.isSuccessful()) {
            throw OperationSupport.requestFailure(request,
                    OperationSupport.createStatus(response, client.getKubernetesSerialization()));
        }
        try {
            return mapper.readTree(response.body());
        } catch (IOException e) {
            throw OperationSupport.requestException(request, e);
        }
    }
}
