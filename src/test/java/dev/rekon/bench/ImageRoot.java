package dev.rekon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.testing.Commands;
import io.fabric8.kubernetes.client.Config;

/**
 * A container image unpacked by umoci, run as a container runtime would run it, without one: its entrypoint in
 * its working directory with its environment only, in a chroot of its root file system, inside a private mount
 * namespace that adds /proc, /dev and /sys (no shell needed in the image). So the JVM is the image's own, and
 * the application's files are at the image's paths with the image's sizes and modification times: what an AOT
 * cache is checked against. It runs as root, not as the image's user: the cache does not depend on the user,
 * and the training writes into the working directory. Needs root (umoci unpack, unshare); the namespace's
 * mounts end with the process.
 */
public final class ImageRoot {

    /** Mounts what a runtime would, then {@code env -i <image env> unshare --root <root> --wd <dir> <command>}. */
    private static final String ENTER = "r=$1; shift; for d in proc dev sys tmp; do mkdir -p \"$r/$d\"; done; "
            + "chmod 1777 \"$r/tmp\"; mount --rbind /proc \"$r/proc\" && mount --rbind /dev \"$r/dev\" "
            + "&& mount --rbind /sys \"$r/sys\" && exec env -i \"$@\"";

    private final Path bundle;
    private final JsonNode process;

    private ImageRoot(Path bundle, JsonNode process) {
        this.bundle = bundle;
        this.process = process;
    }

    /** Unpacks {@code layout:tag} (an OCI layout) into {@code bundle}, which must not exist yet. */
    public static ImageRoot unpack(Path layout, String tag, Path bundle) throws IOException, InterruptedException {
        Commands.run(bundle.getParent(), "umoci", "unpack", "--image", layout + ":" + tag, bundle.toString());
        JsonNode runtimeConfig = new ObjectMapper().readTree(bundle.resolve("config.json").toFile());
        return new ImageRoot(bundle, runtimeConfig.path("process"));
    }

    public Path rootfs() {
        return bundle.resolve("rootfs");
    }

    /** The image's working directory, as a path on this machine. */
    public Path workingDir() {
        return rootfs().resolve(process.path("cwd").asText("/").substring(1));
    }

    /** A variable of the image's environment, or "" when it has none. */
    public String env(String name) {
        for (JsonNode e : process.path("env")) {
            if (e.asText().startsWith(name + "=")) {
                return e.asText().substring(name.length() + 1);
            }
        }
        return "";
    }

    /** The command that runs the image's entrypoint with {@code args} appended, and {@code env} added. */
    public List<String> command(List<String> env, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("unshare", "--mount", "--", "sh", "-c", ENTER, "sh",
                rootfs().toString()));
        process.path("env").forEach(e -> cmd.add(e.asText()));
        cmd.addAll(env);
        cmd.addAll(List.of(Objects.requireNonNullElse(Commands.which("unshare"), "unshare"),
                "--root=" + rootfs(), "--wd=" + process.path("cwd").asText("/"), "--"));
        process.path("args").forEach(a -> cmd.add(a.asText()));
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Copies a kubeconfig into the image's /tmp with its certificates and keys inlined (the originals are files
     * on this machine, outside the chroot), and returns its path in the image.
     */
    public Path kubeconfig(Path hostKubeconfig) throws IOException {
        Config c = Config.fromKubeconfig(Files.readString(hostKubeconfig));
        String yaml = String.join("\n", "apiVersion: v1", "kind: Config", "clusters:", "- name: c",
                "  cluster: {server: '" + c.getMasterUrl() + "', certificate-authority-data: "
                        + data(c.getCaCertData(), c.getCaCertFile()) + "}",
                "users:", "- name: u",
                "  user: {client-certificate-data: " + data(c.getClientCertData(), c.getClientCertFile())
                        + ", client-key-data: " + data(c.getClientKeyData(), c.getClientKeyFile()) + "}",
                "contexts:", "- name: x", "  context: {cluster: c, user: u}", "current-context: x", "");
        Files.createDirectories(rootfs().resolve("tmp"));
        Files.writeString(rootfs().resolve("tmp/kubeconfig"), yaml);
        return Path.of("/tmp/kubeconfig");
    }

    private static String data(String inline, String file) throws IOException {
        return inline != null ? inline : Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(file)));
    }
}
