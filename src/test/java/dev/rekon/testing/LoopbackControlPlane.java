package dev.rekon.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Decides where the local etcd and kube-apiserver listen: on 127.0.0.1 only. kube-api-test binds the apiserver to
 * every interface unless given {@code --bind-address}, and starts etcd (no authentication) with
 * {@code --listen-client-urls http://0.0.0.0:<port>}, which it offers no setting for. So the control plane is
 * started from a directory of its own, laid out as kube-api-test expects, whose {@code etcd} is a wrapper that
 * rewrites that address to loopback before running the cached binary; the apiserver and kubectl are links to the
 * cached ones.
 */
final class LoopbackControlPlane {

    /** The apiserver flags that keep it on loopback. */
    static final List<String> APISERVER_FLAGS = List.of("--bind-address=127.0.0.1");

    private LoopbackControlPlane() {
    }

    /**
     * Lays out {@code workDir/control-plane/k8s/<version>-linux-amd64/} over the binaries in {@code cache} and
     * returns the directory to give kube-api-test as its test directory.
     */
    static Path testDir(Path cache, String version, Path workDir) throws IOException {
        String platform = "k8s/" + version + "-linux-amd64";
        Path cached = cache.resolve(platform);
        Path testDir = workDir.resolve("control-plane");
        Path bin = testDir.resolve(platform);
        Files.createDirectories(bin);
        for (String name : List.of("kube-apiserver", "kubectl")) {
            Path link = bin.resolve(name);
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, cached.resolve(name).toAbsolutePath());
        }
        Path etcd = bin.resolve("etcd");
        Files.deleteIfExists(etcd);
        Files.writeString(etcd, """
                #!/usr/bin/env bash
                # Written by the tests' LocalCluster: etcd on loopback only, whatever address it is given.
                exec '%s' "${@//0.0.0.0/127.0.0.1}"
                """.formatted(cached.resolve("etcd").toRealPath()));
        Files.setPosixFilePermissions(etcd, PosixFilePermissions.fromString("rwxr-xr-x"));
        return testDir;
    }
}
