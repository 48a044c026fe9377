package dev.rekon.registry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Registry credentials from the content of a {@code kubernetes.io/dockerconfigjson} secret ({@code {"auths":
 * {host: {username, password | auth}}}}; also the older {@code .dockercfg} shape without {@code auths}).
 * Hosts are matched without scheme and path; {@code index.docker.io} and {@code registry-1.docker.io} mean Docker Hub.
 */
public final class DockerConfig {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, Credential> byHost;

    private DockerConfig(Map<String, Credential> byHost) {
        this.byHost = Map.copyOf(byHost);
    }

    public static DockerConfig empty() {
        return new DockerConfig(Map.of());
    }

    /** @throws IllegalArgumentException when the content is not such JSON */
    public static DockerConfig parse(byte[] content) {
        JsonNode root;
        try {
            root = JSON.readTree(content);
        } catch (IOException e) {
            throw new IllegalArgumentException("docker config is not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("docker config is not a JSON object");
        }
        JsonNode auths = root.has("auths") ? root.get("auths") : root;
        Map<String, Credential> out = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = auths.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            credential(e.getValue()).ifPresent(c -> out.put(normalize(e.getKey()), c));
        }
        return new DockerConfig(out);
    }

    /**
     * The credentials of a pull Secret's data ({@code .dockerconfigjson}, else {@code .dockercfg}, base64); a
     * Secret that is absent or not a docker config provides none, rather than failing whoever reads it.
     */
    public static DockerConfig ofSecretData(Map<String, String> data) {
        String content = data == null ? null : data.getOrDefault(".dockerconfigjson", data.get(".dockercfg"));
        try {
            return content == null ? empty() : parse(Base64.getDecoder().decode(content.getBytes(StandardCharsets.US_ASCII)));
        } catch (IllegalArgumentException unreadable) {
            return empty();
        }
    }

    /** Several secrets' credentials together; the first one naming a host wins, as with several pull secrets. */
    public DockerConfig and(DockerConfig later) {
        Map<String, Credential> all = new HashMap<>(later.byHost);
        all.putAll(byHost);
        return new DockerConfig(all);
    }

    public Optional<Credential> forRegistry(String registry) {
        return Optional.ofNullable(byHost.get(normalize(registry)));
    }

    private static Optional<Credential> credential(JsonNode entry) {
        String user = entry.path("username").asText("");
        String pass = entry.path("password").asText("");
        if (user.isEmpty() && entry.hasNonNull("auth")) {
            String decoded = new String(Base64.getDecoder().decode(entry.get("auth").asText().trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon > 0) {
                user = decoded.substring(0, colon);
                pass = decoded.substring(colon + 1);
            }
        }
        return user.isEmpty() ? Optional.empty() : Optional.of(new Credential(user, pass));
    }

    static String normalize(String host) {
        String h = host.trim().replaceFirst("^[a-zA-Z]+://", "");
        int slash = h.indexOf('/');
        h = slash >= 0 ? h.substring(0, slash) : h;
        return switch (h) {
            case "index.docker.io", "registry-1.docker.io" -> ImageReference.DOCKER_HUB;
            default -> h;
        };
    }
}
