package dev.rekon.modules.ocm;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the RSA public keys releases are verified against from PEM text: {@code PUBLIC KEY} (X.509),
 * {@code RSA PUBLIC KEY} (PKCS#1, what {@code ocm create rsakeypair} writes) and {@code CERTIFICATE} blocks.
 */
public final class PublicKeys {

    /** A public key and where it came from, for messages. */
    public record NamedKey(String name, PublicKey key) {
    }

    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
    /** DER prefix of an X.509 SubjectPublicKeyInfo's algorithm identifier for rsaEncryption. */
    private static final byte[] RSA_ALGORITHM = { 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00 };

    private PublicKeys() {
    }

    /** Reads each file, or each {@code *.pem} file of each directory, in the comma-separated list. */
    public static List<NamedKey> load(String paths) {
        List<NamedKey> keys = new ArrayList<>();
        for (String p : paths == null ? new String[0] : paths.split(",")) {
            if (!p.isBlank()) {
                files(Path.of(p.trim())).forEach(f -> keys.addAll(read(f)));
            }
        }
        return List.copyOf(keys);
    }

    private static List<Path> files(Path path) {
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> s = Files.list(path)) {
            return s.filter(f -> f.getFileName().toString().endsWith(".pem")).sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot list public key directory " + path + ": " + e.getMessage(), e);
        }
    }

    private static List<NamedKey> read(Path file) {
        try {
            return parse(file.getFileName().toString(), Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read public key file " + file + ": " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException when the text holds no usable RSA public key */
    public static List<NamedKey> parse(String name, String pem) {
        List<NamedKey> keys = new ArrayList<>();
        Matcher m = PEM.matcher(pem);
        while (m.find()) {
            byte[] der = Base64.getMimeDecoder().decode(m.group(2));
            try {
                PublicKey key = switch (m.group(1)) {
                    case "PUBLIC KEY" -> rsa(der);
                    case "RSA PUBLIC KEY" -> rsa(subjectPublicKeyInfo(der));
                    case "CERTIFICATE" -> CertificateFactory.getInstance("X.509")
                            .generateCertificate(new ByteArrayInputStream(der)).getPublicKey();
                    default -> null;
                };
                if (key != null) {
                    keys.add(new NamedKey(keys.isEmpty() ? name : name + "#" + (keys.size() + 1), key));
                }
            } catch (GeneralSecurityException e) {
                throw new IllegalArgumentException("public key " + name + " is not a valid RSA key: " + e.getMessage(), e);
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("public key " + name + " holds no PEM block 'PUBLIC KEY', "
                    + "'RSA PUBLIC KEY' or 'CERTIFICATE'");
        }
        return keys;
    }

    private static PublicKey rsa(byte[] spki) throws GeneralSecurityException {
        return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(spki));
    }

    /** Wraps a PKCS#1 RSAPublicKey into SubjectPublicKeyInfo, the form Java's KeyFactory reads. */
    static byte[] subjectPublicKeyInfo(byte[] pkcs1) {
        ByteArrayOutputStream bitString = new ByteArrayOutputStream();
        bitString.write(0);
        bitString.writeBytes(pkcs1);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(RSA_ALGORITHM);
        body.writeBytes(der(0x03, bitString.toByteArray()));
        return der(0x30, body.toByteArray());
    }

    private static byte[] der(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            byte[] len = java.math.BigInteger.valueOf(n).toByteArray();
            int skip = len[0] == 0 ? 1 : 0;
            out.write(0x80 | (len.length - skip));
            out.write(len, skip, len.length - skip);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    /** The PEM text of a key, as {@code PUBLIC KEY}: what users put into the configured files. */
    public static String pem(PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }
}
