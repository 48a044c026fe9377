package dev.rekon.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The local stack behind the README's run command: a real apiserver with every CRD, a real registry whose
 * notifications go to the functions on {@code 127.0.0.1:<app port>}, and a real git server holding an empty
 * repository {@value #DEMO_REPO} for the declared-state walkthrough. Writes {@code target/local/kubeconfig},
 * {@code target/local/registry-address} and {@code target/local/git-address} (the clone URL of the repository,
 * then the same URL with the git server's user and password in it) for the script, then runs until stopped.
 */
public final class LocalStack {

    /** The repository the README's declared-state walkthrough pushes to. */
    public static final String DEMO_REPO = "demo";

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
        LocalGitServer git = LocalGitServer.get(); // stopped by its own shutdown hook
        git.createRepo(DEMO_REPO);
        Files.writeString(dir.resolve("git-address"), git.url(DEMO_REPO) + "\n" + git.authenticatedUrl(DEMO_REPO) + "\n");
        Files.copy(cluster.kubeconfigFile(), dir.resolve("kubeconfig.ready"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("local stack: apiserver " + cluster.apiServerUrl() + ", registry " + registry.hostPort()
                + ", git " + git.url(DEMO_REPO));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            registry.stop();
            cluster.stop();
        }));
        new CountDownLatch(1).await();
    }
}
