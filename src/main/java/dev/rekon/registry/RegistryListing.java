package dev.rekon.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the Distribution API's paginated lists (a repository's tags, a registry's catalog): every page, following
 * each answer's {@code Link: <...>; rel="next"} until there is none.
 */
final class RegistryListing {

    static final int PAGE = 1000;
    /** Stops a registry that links in circles. */
    private static final int MAX_PAGES = 1000;
    private static final Pattern NEXT = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"?next\"?");
    private static final ObjectMapper JSON = new ObjectMapper();

    private RegistryListing() {
    }

    /** @param field {@code tags} or {@code repositories} */
    static List<String> all(RegistrySession s, String path, String field) {
        List<String> out = new ArrayList<>();
        String next = path;
        for (int page = 0; next != null && page < MAX_PAGES; page++) {
            HttpResponse<byte[]> r = s.send("GET", next, "application/json");
            try {
                for (JsonNode n : JSON.readTree(r.body()).path(field)) {
                    out.add(n.asText());
                }
            } catch (IOException e) {
                throw RegistryFailures.permanent("RegistryError", "registry answered " + path + " with no JSON list");
            }
            next = r.headers().firstValue("Link").map(RegistryListing::next).orElse(null);
        }
        return out;
    }

    /** The path and query of a {@code Link} header's next page (registries send it relative or absolute). */
    static String next(String link) {
        Matcher m = NEXT.matcher(link);
        if (!m.find()) {
            return null;
        }
        URI u = URI.create(m.group(1));
        return u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }
}
