package dev.rekon.webhooks.git;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The git push payloads under {@code webhooks/git/}, written from each host's documented shape. */
final class GitFixtures {

    static final ObjectMapper JSON = new ObjectMapper();

    private GitFixtures() {
    }

    static byte[] bytes(String name) {
        try (InputStream in = GitFixtures.class.getResourceAsStream("/webhooks/git/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource webhooks/git/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode json(String name) {
        try {
            return (ObjectNode) JSON.readTree(bytes(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
