package dev.rekon.registry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.net.ssl.SSLException;

/**
 * Decides how one request reaches a registry host: over HTTPS, or over plain HTTP for a loopback or configured
 * insecure host once TLS to it failed (as docker does), remembered per host. Sorts I/O failures into
 * {@code core/} failures ({@link RegistryFailures}) and tells the {@link RegistryClient.RequestListener} of every request sent.
 */
final class RegistryTransport {

    private final HttpClient http;
    private final Set<String> insecure;
    private final Duration timeout;
    private final RegistryClient.RequestListener listener;
    private final Map<String, String> plainHttpHosts = new ConcurrentHashMap<>();

    RegistryTransport(Set<String> insecureRegistries, Duration timeout, RegistryClient.RequestListener listener) {
        this.insecure = Set.copyOf(insecureRegistries);
        this.timeout = timeout;
        this.listener = listener;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The scheme and host a path of {@code host} is requested at. */
    String base(String host) {
        return plainHttpHosts.containsKey(host) ? "http://" + host : "https://" + host;
    }

    boolean mayUsePlainHttp(String host) {
        String name = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1) : host.split(":")[0];
        return insecure.contains(host) || name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]");
    }

    /** One request about {@code reference}'s repository, with {@code auth} as its Authorization when not null. */
    HttpResponse<byte[]> exchange(ImageReference reference, String method, URI uri, String accept, String auth) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", accept)
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (auth != null) {
            b.header("Authorization", auth);
        }
        int status = 0;
        try {
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            status = r.statusCode();
            return r;
        } catch (SSLException e) {
            return overPlainHttp(reference, method, uri, accept, auth, e);
        } catch (IOException e) {
            throw RegistryFailures.retryable("registry " + uri.getRawAuthority() + " unreachable: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RegistryFailures.retryable("interrupted while reading " + reference, e);
        } finally {
            listener.requested(uri.getRawAuthority(), method, status);
        }
    }

    private HttpResponse<byte[]> overPlainHttp(ImageReference reference, String method, URI uri, String accept,
            String auth, SSLException failure) {
        String host = uri.getRawAuthority();
        if ("https".equals(uri.getScheme()) && mayUsePlainHttp(host)) {
            plainHttpHosts.put(host, "http");
            return exchange(reference, method, URI.create("http" + uri.toString().substring(5)), accept, auth);
        }
        throw RegistryFailures.permanent("RegistryTlsFailed", "TLS to " + host + " failed (" + failure.getMessage()
                + "); if it speaks plain HTTP, list it in rekon.registry.insecure");
    }
}
