package dev.rekon.registry;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;

/**
 * Plain HTTP(S) reads of a link (a module's raw manifest), their answers sorted at this edge as a registry's are:
 * unreachable, 5xx, 429 and 408 are transient; any other answer but 200 is refused with its code and reason
 * {@value #REFUSED}, so that the caller names what to fix without reading a status itself.
 */
public final class HttpLinks {

    public static final String REFUSED = "LinkRefused";

    private HttpLinks() {
    }

    /**
     * The body of a 200 answer to a GET of {@code uri}, for the caller to read and close.
     *
     * @param what how failures name the link, e.g. {@code manifest link}
     */
    public static InputStream get(HttpClient http, URI uri, Duration timeout, String what) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        HttpResponse<InputStream> r;
        try {
            r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw unreachable(what, uri, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransientFailureException("interrupted while reading " + uri, e);
        }
        int code = r.statusCode();
        if (code == 200) {
            return r.body();
        }
        try {
            r.body().close();
        } catch (IOException ignored) {
            // Only the status matters from here; a body that fails to close changes nothing.
        }
        if (code >= 500 || code == 429 || code == 408) {
            throw new TransientFailureException(what + " " + uri + " answered HTTP " + code, null);
        }
        throw new RefusedException(code, null, REFUSED, what + " " + uri + " answered HTTP " + code, null);
    }

    /** A link that could not be read to its end: transient, as the host may answer next time. */
    public static TransientFailureException unreachable(String what, URI uri, IOException e) {
        return new TransientFailureException(what + " " + uri + " unreachable: " + e, e);
    }
}
