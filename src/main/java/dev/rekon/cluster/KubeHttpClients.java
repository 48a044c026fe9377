package dev.rekon.cluster;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.TlsVersion;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;

/**
 * The HTTP clients under Rekon's Kubernetes clients: {@link ChaChaFirst}'s Vert.x clients, configured as the
 * Kubernetes client configures any, each wrapped in a {@link KubeHttpClient}; {@code closedResend} hears of every
 * send that went out again because its connection was closed under it.
 */
final class KubeHttpClients implements HttpClient.Factory {

    private final VertxHttpClientFactory vertx = new ChaChaFirst();
    private final Consumer<StandardHttpRequest> closedResend;

    KubeHttpClients(Consumer<StandardHttpRequest> closedResend) {
        this.closedResend = closedResend;
    }

    @Override
    public HttpClient.Builder newBuilder() {
        return new Builder(vertx.newBuilder());
    }

    private final class Builder implements HttpClient.Builder {
        private final VertxHttpClientBuilder<VertxHttpClientFactory> builder;

        Builder(VertxHttpClientBuilder<VertxHttpClientFactory> builder) {
            this.builder = builder;
        }

        @Override
        public HttpClient build() {
            return new KubeHttpClient(builder, closedResend);
        }

        @Override
        public HttpClient.Builder connectTimeout(long connectTimeout, TimeUnit unit) {
            builder.connectTimeout(connectTimeout, unit);
            return this;
        }

        @Override
        public HttpClient.Builder addOrReplaceInterceptor(String name, Interceptor interceptor) {
            builder.addOrReplaceInterceptor(name, interceptor);
            return this;
        }

        @Override
        public HttpClient.Builder authenticatorNone() {
            builder.authenticatorNone();
            return this;
        }

        @Override
        public HttpClient.Builder tag(Object value) {
            builder.tag(value);
            return this;
        }

        @Override
        public HttpClient.Builder sslContext(KeyManager[] keyManagers, TrustManager[] trustManagers) {
            builder.sslContext(keyManagers, trustManagers);
            return this;
        }

        @Override
        public HttpClient.Builder followAllRedirects() {
            builder.followAllRedirects();
            return this;
        }

        @Override
        public HttpClient.Builder proxyAddress(InetSocketAddress proxyAddress) {
            builder.proxyAddress(proxyAddress);
            return this;
        }

        @Override
        public HttpClient.Builder proxyAuthorization(String credentials) {
            builder.proxyAuthorization(credentials);
            return this;
        }

        @Override
        public HttpClient.Builder tlsVersions(TlsVersion... tlsVersions) {
            builder.tlsVersions(tlsVersions);
            return this;
        }

        @Override
        public HttpClient.Builder tlsServerName(String tlsServerName) {
            builder.tlsServerName(tlsServerName);
            return this;
        }

        @Override
        public HttpClient.Builder preferHttp11() {
            builder.preferHttp11();
            return this;
        }

        @Override
        public HttpClient.Builder proxyType(HttpClient.ProxyType type) {
            builder.proxyType(type);
            return this;
        }
    }
}
