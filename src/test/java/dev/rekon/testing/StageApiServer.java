package dev.rekon.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;


import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Another cluster for a promotion stage: a kube-apiserver started with the flags of {@link LocalCluster}'s (its
 * certificates, RBAC, service-account keys) on a port of its own and under an etcd prefix of its own, so that it
 * shares no object with the first: a cluster of its own on the same etcd. The project's own CRDs are installed
 * there; its kubeconfig is the first's with the port swapped.
 */
public final class StageApiServer implements AutoCloseable {

    private Process process;
    private final List<String> command;
    private final Path log;
    private final int port;
    private final String kubeconfig;
    private final KubernetesClient admin;

    private StageApiServer(Process process, List<String> command, Path log, int port, String kubeconfig) {
        this.process = process;
        this.command = command;
        this.log = log;
        this.port = port;
        this.kubeconfig = kubeconfig;
        this.admin = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
    }

    /** Starts the stage's apiserver, waits until it is ready, and installs the project's own CRDs there. */
    public static StageApiServer start(String name, Path dir) {
        return start(name, dir, LocalCluster.get());
    }

    /** The same, beside {@code first} (a cluster this process started itself rather than the shared one). */
    public static StageApiServer start(String name, Path dir, LocalCluster first) {
        try {
            Files.createDirectories(dir);
            List<String> original = first.apiServerCommand();
            int port = LocalRegistry.freePort();
            List<String> command = new ArrayList<>();
            for (int i = 0; i < original.size(); i++) {
                String arg = original.get(i);
                if (arg.equals("--secure-port")) {
                    command.add(arg);
                    command.add(String.valueOf(port));
                    i++;
                } else if (arg.startsWith("--secure-port=")) {
                    command.add("--secure-port=" + port);
                } else if (!arg.startsWith("--etcd-prefix")) {
                    command.add(arg);
                }
            }
            command.add("--etcd-prefix=/rekon-stage-" + name);
            Path log = dir.resolve(name + "-apiserver.log");
            Process p = process(command, log);
            int firstPort = URI.create(first.apiServerUrl()).getPort();
            StageApiServer stage = new StageApiServer(p, command, log, port,
                    first.kubeconfigYaml().replace(":" + firstPort, ":" + port));
            Runtime.getRuntime().addShutdownHook(new Thread(stage::close, name + "-apiserver-stop"));
            stage.awaitReady();
            CrdInstaller.installOwn(stage.admin, SharedFiles.projectDir());
            return stage;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the apiserver of stage " + name, e);
        }
    }

    private static Process process(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /** SIGKILL of the stage's apiserver only: what it stored stays in etcd, for {@link #launch}. */
    public synchronized void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the killed apiserver again, on the same port and data, and waits until it is ready. */
    public synchronized void launch() {
        try {
            process = process(command, log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the stage's apiserver again", e);
        }
        awaitReady();
    }

    /** An admin kubeconfig for this cluster, as a promotion's kubeconfig Secret holds it. */
    public String kubeconfig() {
        return kubeconfig;
    }

    public KubernetesClient adminClient() {
        return admin;
    }

    public int port() {
        return port;
    }

    private void awaitReady() {
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the stage's kube-apiserver exited");
            }
            if (LocalCluster.apiServerReady(port)) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new IllegalStateException("the stage's kube-apiserver did not get ready on port " + port);
    }

    /** SIGKILL: the stage's cluster is gone, as an unreachable one is. */
    @Override
    public synchronized void close() {
        admin.close();
        process.destroyForcibly();
    }
}
