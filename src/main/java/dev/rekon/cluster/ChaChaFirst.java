package dev.rekon.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.spi.tls.SslContextFactory;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * Decides the order of the TLS cipher suites the Kubernetes client offers: ChaCha20-Poly1305 first, then every suite
 * netty offers by default. Rekon runs with C1 only ({@code hack/start.sh}), and the CPU's AES and carry-less
 * multiplication instructions reach AES-GCM only through C2's intrinsics: with C1, AES-GCM costs about four times
 * the CPU per byte of ChaCha20-Poly1305 (24 against 95-120 MB/s on one core, JDK 17 and 25 alike), and decrypting
 * watch streams and responses was the largest single cost of a warm rollout event. Go's TLS server (the
 * apiserver's) takes ChaCha20 when the client does not put AES-GCM first; a server without it still finds the
 * AES-GCM suites that follow.
 */
public final class ChaChaFirst extends VertxHttpClientFactory {

    static final List<String> FIRST = List.of("TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    @Override
    protected void additionalConfig(WebClientOptions options) {
        if (options.getSslEngineOptions() instanceof JdkSSLEngineOptions given) {
            options.setSslEngineOptions(new JdkSSLEngineOptions() {
                @Override
                public JdkSSLEngineOptions copy() {
                    return this;
                }

                @Override
                public SslContextFactory sslContextFactory() {
                    SslContextFactory made = given.sslContextFactory();
                    return () -> reordered(made.create());
                }
            });
        }
    }

    /** The same context (keys, trust, protocols) offering {@link #FIRST} before its own suites. */
    @SuppressWarnings("deprecation") // the constructor fabric8 itself uses for its context
    static SslContext reordered(SslContext context) {
        if (!(context instanceof JdkSslContext jdk) || !context.isClient()) {
            return context;
        }
        Set<String> supported = Set.of(jdk.context().getSupportedSSLParameters().getCipherSuites());
        List<String> order = new ArrayList<>(FIRST.stream().filter(supported::contains).toList());
        jdk.cipherSuites().stream().filter(s -> !order.contains(s)).forEach(order::add);
        String[] protocols = jdk.newEngine(ByteBufAllocator.DEFAULT).getEnabledProtocols();
        return new JdkSslContext(jdk.context(), true, order, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, protocols, false);
    }
}
