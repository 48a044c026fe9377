package dev.rekon.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The local stack behind the README's run command: a real apiserver with every CRD and a real registry
 * whose notifications go to the functions on {@code 127.0.0.1:<app port>}. Writes
 * {@code target/local/kubeconfig} and {@code target/local/registry-address} for the script, then runs until stopped.
 */
public final class LocalStack {

    private LocalStack() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        int appPort = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        String token = args.length > 1 ? args[1] : "local-token";
        int registryPort = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
        Path dir = SharedFiles.projectDir().resolve("target/local");
        Files.createDirectories(dir);
        LocalCluster cluster = LocalCluster.start(dir);
        CrdInstaller.install(cluster.adminClient(), SharedFiles.projectDir());
        Kpack.namespace(cluster.adminClient(), "demo");
        LocalRegistry registry = LocalRegistry.start(LocalRegistry.Options.plain("local-registry")
                .notifying("http://127.0.0.1:" + appPort + "/webhooks/distribution", token).onPort(registryPort));
        Files.writeString(dir.resolve("registry-address"), registry.hostPort() + "\n");
        Files.copy(cluster.kubeconfigFile(), dir.resolve("kubeconfig.ready"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("local stack: apiserver " + cluster.apiServerUrl() + ", registry " + registry.hostPort());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            registry.stop();
            cluster.stop();
        }));
        new CountDownLatch(1).await();
    }
}
