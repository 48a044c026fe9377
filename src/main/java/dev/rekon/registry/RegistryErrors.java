package dev.rekon.registry;

import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Sorts registry HTTP statuses into success, transient (5xx, 429) and permanent failures with a reason
 * ({@link RegistryFailures}). */
final class RegistryErrors {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RegistryErrors() {
    }

    static HttpResponse<byte[]> check(HttpResponse<byte[]> r, ImageReference ref) {
        int code = r.statusCode();
        if (code >= 200 && code < 300) {
            return r;
        }
        String detail = detail(r);
        if (code >= 500 || code == 429 || code == 408) {
            throw RegistryFailures.retryable("registry " + ref.registry() + " answered HTTP " + code + " for " + ref
                    + detail, null);
        }
        if (code == 401 || code == 403) {
            throw RegistryAuth.unauthorized(ref);
        }
        if (code == 404) {
            throw RegistryFailures.permanent(404, "ImageNotFound", "image " + ref + " not found in its registry" + detail);
        }
        throw RegistryFailures.permanent(code, "RegistryError", "registry " + ref.registry() + " answered HTTP " + code
                + " for " + ref + detail);
    }

    private static String detail(HttpResponse<byte[]> r) {
        try {
            JsonNode errors = JSON.readTree(r.body()).path("errors");
            if (errors.size() > 0) {
                return " (" + errors.get(0).path("code").asText() + ": " + errors.get(0).path("message").asText() + ")";
            }
        } catch (Exception notJson) {
            // HEAD responses and proxies' HTML pages carry no registry error body.
        }
        return "";
    }
}
