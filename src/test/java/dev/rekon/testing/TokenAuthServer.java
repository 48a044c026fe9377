package dev.rekon.testing;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The token service of Docker's registry token authentication, for a real {@code docker-registry} started
 * with {@code auth: token}: it checks the client's Basic credentials and issues RS256 JWTs for the
 * requested scope, signed by a key whose certificate the registry trusts. It stands in for an identity
 * provider (Harbor's core, Docker Hub's auth), never for the registry, which does the real verification.
 */
public final class TokenAuthServer implements AutoCloseable {

    public static final String SERVICE = "rekon-test-registry";
    public static final String ISSUER = "rekon-test-token-issuer";

    private final HttpServer server;
    private final KeyPair keys;
    private final Path certificate;
    private final String user;
    private final String password;
    private final String keyId;

    private TokenAuthServer(Path dir, String user, String password) throws Exception {
        this.user = user;
        this.password = password;
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        this.keys = generator.generateKeyPair();
        this.keyId = libtrustKeyId(keys.getPublic().getEncoded());
        Files.createDirectories(dir);
        this.certificate = dir.resolve("token-signer.pem");
        Files.writeString(certificate, selfSignedPem());
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/token", this::token);
        server.start();
    }

    public static TokenAuthServer start(Path dir, String user, String password) {
        try {
            return new TokenAuthServer(dir, user, password);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the token service", e);
        }
    }

    public String realm() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/token";
    }

    public Path certificate() {
        return certificate;
    }

    private void token(HttpExchange exchange) throws IOException {
        String expected = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"token\"");
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
            return;
        }
        List<String> scopes = query(exchange.getRequestURI(), "scope");
        String jwt = jwt(scopes);
        byte[] body = new JsonObject(Map.of("token", jwt, "access_token", jwt, "expires_in", 300,
                "issued_at", Instant.now().toString())).encode().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private String jwt(List<String> scopes) {
        JsonArray access = new JsonArray();
        for (String scope : scopes) {
            String[] parts = scope.split(":");
            if (parts.length == 3) {
                access.add(new JsonObject().put("type", parts[0]).put("name", parts[1])
                        .put("actions", new JsonArray(List.of(parts[2].split(",")))));
            }
        }
        long now = Instant.now().getEpochSecond();
        JsonObject header = new JsonObject().put("typ", "JWT").put("alg", "RS256").put("kid", keyId);
        JsonObject claims = new JsonObject().put("iss", ISSUER).put("sub", user).put("aud", SERVICE)
                .put("exp", now + 300).put("nbf", now - 10).put("iat", now).put("jti", UUID.randomUUID().toString())
                .put("access", access);
        String signingInput = b64(header.encode()) + "." + b64(claims.encode());
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(keys.getPrivate());
            rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key id the registry derives from a trusted certificate (libtrust's format). */
    static String libtrustKeyId(byte[] publicKeyDer) throws Exception {
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(publicKeyDer);
        String b32 = base32(java.util.Arrays.copyOf(hash, 30));
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < b32.length(); i += 4) {
            groups.add(b32.substring(i, i + 4));
        }
        return String.join(":", groups);
    }

    private static String base32(byte[] data) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        StringBuilder out = new StringBuilder();
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(alphabet.charAt((buffer >> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(alphabet.charAt((buffer << (5 - bits)) & 31));
        }
        return out.toString();
    }

    private String selfSignedPem() throws Exception {
        X500Name name = new X500Name("CN=" + ISSUER);
        Instant now = Instant.now();
        X509CertificateHolder cert = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minusSeconds(60)), Date.from(now.plusSeconds(86_400)), name, keys.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate()));
        return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(cert.getEncoded()) + "\n-----END CERTIFICATE-----\n";
    }

    private static List<String> query(URI uri, String key) {
        List<String> values = new ArrayList<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).equals(key)) {
                    values.add(URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return values;
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
