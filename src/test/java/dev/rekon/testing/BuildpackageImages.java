package dev.rekon.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds real buildpackage images in tests and pushes them: one uncompressed tar layer per buildpack
 * ({@code /cnb/buildpacks/<id>/<version>/buildpack.toml}), added with umoci, and the labels
 * {@code io.buildpacks.buildpackage.metadata} and {@code io.buildpacks.buildpack.layers} carrying each layer's
 * real diffID (sha256 of the tar); pushed with skopeo. Needs umoci, skopeo and tar on PATH.
 */
public final class BuildpackageImages {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One buildpack of a package; {@code children} ("id@version") make it a meta-buildpack with one group. */
    public record Buildpack(String id, String version, List<String> children) {
        public static Buildpack of(String key, String... children) {
            String[] iv = key.split("@", 2);
            return new Buildpack(iv[0], iv[1], List.of(children));
        }
    }

    private final Path work;

    public BuildpackageImages(Path work) {
        this.work = work.toAbsolutePath();
    }

    /**
     * Builds the package and pushes it to {@code target} ({@code host:port/repo:tag}); returns the manifest digest.
     * {@code creds} is {@code user:password} or null. {@code salt} changes the layer content (a "new release").
     */
    public String push(String target, String creds, String packageId, String packageVersion, String salt,
            Buildpack... buildpacks) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory(work, "bp");
        Path layout = dir.resolve("oci");
        run(dir, "umoci", "init", "--layout", layout.toString());
        run(dir, "umoci", "new", "--image", layout + ":bp");
        ObjectNode layers = JSON.createObjectNode();
        for (Buildpack bp : buildpacks) {
            Path tar = layerTar(dir, bp, salt);
            run(dir, "umoci", "raw", "add-layer", "--image", layout + ":bp", tar.toString());
            layers.with(bp.id()).set(bp.version(), layerInfo(bp, "sha256:" + sha256(tar)));
        }
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("id", packageId);
        meta.put("version", packageVersion);
        meta.put("homepage", "https://example.org/" + packageId);
        run(dir, "umoci", "config", "--image", layout + ":bp",
                "--config.label", "io.buildpacks.buildpackage.metadata=" + JSON.writeValueAsString(meta),
                "--config.label", "io.buildpacks.buildpack.layers=" + JSON.writeValueAsString(layers));
        Path digestFile = dir.resolve("digest");
        List<String> copy = new ArrayList<>(List.of("skopeo", "copy", "--quiet", "--dest-tls-verify=false",
                "--digestfile", digestFile.toString()));
        if (creds != null) {
            copy.addAll(List.of("--dest-creds", creds));
        }
        copy.addAll(List.of("oci:" + layout + ":bp", "docker://" + target));
        run(dir, copy.toArray(String[]::new));
        return Files.readString(digestFile).trim();
    }

    private static ObjectNode layerInfo(Buildpack bp, String diffId) {
        ObjectNode info = JSON.createObjectNode();
        info.put("api", "0.7");
        if (bp.children().isEmpty()) {
            info.putArray("stacks").addObject().put("id", "*");
        } else {
            ArrayNode group = info.putArray("order").addObject().putArray("group");
            bp.children().forEach(c -> group.addObject().put("id", c.split("@")[0]).put("version", c.split("@")[1]));
        }
        info.put("layerDiffID", diffId);
        info.put("homepage", "https://example.org/" + bp.id());
        return info;
    }

    private static Path layerTar(Path dir, Buildpack bp, String salt) throws IOException, InterruptedException {
        String escaped = bp.id().replace("/", "_");
        Path root = dir.resolve("root-" + escaped);
        Path bpDir = root.resolve("cnb/buildpacks/" + escaped + "/" + bp.version());
        Files.createDirectories(bpDir);
        Files.writeString(bpDir.resolve("buildpack.toml"), "api = \"0.7\"\n[buildpack]\nid = \"" + bp.id()
                + "\"\nversion = \"" + bp.version() + "\"\n# " + salt + "\n", StandardCharsets.UTF_8);
        Path tar = dir.resolve(escaped + ".tar");
        run(dir, "tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner",
                "-cf", tar.toString(), "-C", root.toString(), "cnb");
        return tar;
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
    }
}
