package dev.rekon.registry;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * One image's requests: decides the Authorization they carry, answering the registry's first 401 challenge
 * ({@link RegistryAuth}) and keeping the answer for the requests that follow, and never sending it on to a
 * storage redirect. Answers are checked by {@link RegistryErrors}.
 */
final class RegistrySession {

    private final RegistryTransport transport;
    private final ImageReference reference;
    private final Optional<Credential> credential;
    // Set by the first request's challenge, then read by the session's parallel blob reads.
    private volatile String authorization;

    RegistrySession(RegistryTransport transport, ImageReference reference, Optional<Credential> credential) {
        this.transport = transport;
        this.reference = reference;
        this.credential = credential;
    }

    byte[] blob(String digest) {
        return send("GET", "/v2/" + reference.repository() + "/blobs/" + digest, "*/*").body();
    }

    HttpResponse<byte[]> send(String method, String path, String accept) {
        HttpResponse<byte[]> r = transport.exchange(reference, method, at(path), accept, authorization);
        if (r.statusCode() == 401 && authorization == null) {
            authorization = RegistryAuth.answer(reference, credential,
                    r.headers().firstValue("WWW-Authenticate").orElse(""), this::exchangeToken);
            r = transport.exchange(reference, method, at(path), accept, authorization);
        }
        if (r.statusCode() >= 300 && r.statusCode() < 400 && r.headers().firstValue("Location").isPresent()) {
            // Storage redirects (S3, GCS) must not receive the registry's credentials.
            URI next = at(path).resolve(r.headers().firstValue("Location").get());
            r = transport.exchange(reference, method, next, accept, null);
        }
        return RegistryErrors.check(r, reference);
    }

    /** The path on the registry, over the scheme its host speaks as far as known now. */
    private URI at(String path) {
        return URI.create(transport.base(reference.apiHost()) + path);
    }

    private HttpResponse<byte[]> exchangeToken(URI uri, String auth) {
        return transport.exchange(reference, "GET", uri, "application/json", auth);
    }
}
