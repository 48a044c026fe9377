package dev.rekon.registry;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.RefusedException;

/**
 * Answers a registry's 401 challenge ({@code WWW-Authenticate}): {@code Basic} with the credential, or
 * {@code Bearer realm=..,service=..,scope=..} by fetching a pull token from the realm (with the credential,
 * or anonymously when there is none).
 */
final class RegistryAuth {

    private static final Pattern PARAM = Pattern.compile("(\\w+)=\"([^\"]*)\"");
    private static final ObjectMapper JSON = new ObjectMapper();

    private RegistryAuth() {
    }

    static String answer(ImageReference ref, Optional<Credential> credential,
            String challenge, BiFunction<URI, String, HttpResponse<byte[]>> get) {
        String scheme = challenge.split(" ", 2)[0].trim();
        if (scheme.equalsIgnoreCase("Basic")) {
            return credential.map(Credential::basicHeader).orElseThrow(() -> unauthorized(ref));
        }
        if (!scheme.equalsIgnoreCase("Bearer")) {
            throw RegistryFailures.permanent("RegistryUnauthorized", "registry " + ref.registry()
                    + " asks for unsupported authentication '" + scheme + "'");
        }
        Map<String, String> params = new HashMap<>();
        Matcher m = PARAM.matcher(challenge);
        while (m.find()) {
            params.put(m.group(1), m.group(2));
        }
        String realm = params.get("realm");
        if (realm == null) {
            throw RegistryFailures.permanent("RegistryUnauthorized", "registry " + ref.registry() + " sent a Bearer challenge without realm");
        }
        String scope = params.getOrDefault("scope", "repository:" + ref.repository() + ":pull");
        StringBuilder url = new StringBuilder(realm).append(realm.contains("?") ? "&" : "?")
                .append("scope=").append(URLEncoder.encode(scope, StandardCharsets.UTF_8));
        if (params.containsKey("service")) {
            url.append("&service=").append(URLEncoder.encode(params.get("service"), StandardCharsets.UTF_8));
        }
        HttpResponse<byte[]> r = get.apply(URI.create(url.toString()), credential.map(Credential::basicHeader).orElse(null));
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw unauthorized(ref);
        }
        RegistryErrors.check(r, ref);
        try {
            JsonNode body = JSON.readTree(r.body());
            String token = body.hasNonNull("token") ? body.get("token").asText() : body.path("access_token").asText(null);
            if (token == null) {
                throw RegistryFailures.permanent("RegistryUnauthorized", "token endpoint " + realm + " returned no token");
            }
            return "Bearer " + token;
        } catch (java.io.IOException e) {
            throw RegistryFailures.permanent("RegistryUnauthorized", "token endpoint " + realm + " returned no JSON");
        }
    }

    static RefusedException unauthorized(ImageReference ref) {
        return RegistryFailures.permanent("RegistryUnauthorized", "registry " + ref.registry() + " refused access to "
                + ref.repository() + "; give the resource's service account an imagePullSecret with credentials for "
                + ref.registry());
    }
}
