package dev.rekon.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;


import dev.rekon.testing.LocalCluster;

/**
 * A second kube-apiserver on the etcd of {@link LocalCluster}, started with the same flags (certificates,
 * RBAC, service-account keys) on a port of its own, so that it can be killed and started again without
 * taking etcd down: kube-api-test stops etcd as soon as its own apiserver exits. The application under
 * chaos talks to this one; the test checks the cluster through the first, which stays up.
 */
public final class SecondApiServer {

    private final List<String> command;
    private final int port;
    private final Path log;
    private final Path kubeconfig;
    private Process process;

    private SecondApiServer(List<String> command, int port, Path log, Path kubeconfig) {
        this.command = command;
        this.port = port;
        this.log = log;
        this.kubeconfig = kubeconfig;
    }

    /** Copies the running apiserver's command line, swaps the port, and starts it. */
    public static SecondApiServer start(LocalCluster cluster, Path dir) {
        return start(cluster, dir, java.util.Map.of());
    }

    /**
     * The same, with {@code flags} ({@code --name} to value) set instead of the running one's: a server that
     * throttles early ({@code --max-requests-inflight}), say.
     */
    public static SecondApiServer start(LocalCluster cluster, Path dir, java.util.Map<String, String> flags) {
        try {
            Files.createDirectories(dir);
            List<String> original = cluster.apiServerCommand();
            int port = freePort();
            List<String> command = new ArrayList<>();
            for (int i = 0; i < original.size(); i++) {
                String arg = original.get(i);
                if (flags.containsKey(arg)) {
                    i++;
                    continue;
                }
                if (arg.contains("=") && flags.containsKey(arg.substring(0, arg.indexOf('=')))) {
                    continue;
                }
                command.add(original.get(i));
                if (original.get(i).equals("--secure-port")) {
                    command.add(String.valueOf(port));
                    i++;
                }
            }
            flags.forEach((name, value) -> command.add(name + "=" + value));
            int firstPort = URI.create(cluster.apiServerUrl()).getPort();
            Path kubeconfig = dir.resolve("kubeconfig-second");
            Files.writeString(kubeconfig, cluster.kubeconfigYaml().replace(":" + firstPort, ":" + port));
            SecondApiServer s = new SecondApiServer(command, port, dir.resolve("second-apiserver.log"), kubeconfig);
            s.launch();
            Runtime.getRuntime().addShutdownHook(new Thread(s::kill, "second-apiserver-stop"));
            return s;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a second kube-apiserver", e);
        }
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    public int port() {
        return port;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Starts the process and waits until /readyz answers 200. */
    public synchronized void launch() {
        if (isRunning()) {
            return;
        }
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start kube-apiserver", e);
        }
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("kube-apiserver exited; see " + log);
            }
            if (LocalCluster.apiServerReady(port)) {
                return;
            }
            sleep(100);
        }
        throw new IllegalStateException("kube-apiserver did not get ready on port " + port + "; see " + log);
    }

    /** SIGKILL, as a crashed or evicted apiserver would go. */
    public synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    static int freePort() {
        return dev.rekon.testing.LocalRegistry.freePort();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
