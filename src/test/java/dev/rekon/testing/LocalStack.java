package dev.rekon.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.fabric8.kubernetes.api.model.SecretBuilder;

/**
 * The local stack behind the README's run command: a real apiserver with every CRD, a real registry whose
 * notifications go to the functions on {@code 127.0.0.1:<app port>}, and a real git server holding an empty
 * repository {@value #DEMO_REPO} for the declared-state walkthrough. Writes {@code target/local/kubeconfig},
 * {@code target/local/registry-address} and {@code target/local/git-address} (the clone URL of the repository,
 * then the same URL with the git server's user and password in it) for the script, then runs until stopped. With a
 * fourth argument above 1, it also starts that many clusters minus one for promotion stages ({@link #stageClusters}).
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
        int stages = args.length > 3 ? Integer.parseInt(args[3]) : 1;
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
        List<StageApiServer> extra = stageClusters(cluster, stages, dir);
        Files.copy(cluster.kubeconfigFile(), dir.resolve("kubeconfig.ready"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("local stack: apiserver " + cluster.apiServerUrl() + ", registry " + registry.hostPort()
                + ", git " + git.url(DEMO_REPO));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            extra.forEach(StageApiServer::close);
            registry.stop();
            cluster.stop();
        }));
        new CountDownLatch(1).await();
    }

    /**
     * {@code stages - 1} more clusters for an ImagePromotion's later stages ({@code staging}, then {@code prod}, and
     * {@code stage-<n>} between them beyond three), each a kube-apiserver of its own beside the first (same etcd,
     * its own prefix, 127.0.0.1 only) with the project's CRDs and a namespace {@code demo}. Each one's admin
     * kubeconfig is written to {@code kubeconfig-<name>} and into the Secret {@code <name>-kubeconfig} in the first
     * cluster's {@code demo}, where the walkthrough's ImagePromotion lives; {@code stages} lists them.
     */
    static List<StageApiServer> stageClusters(LocalCluster first, int stages, Path dir) throws java.io.IOException {
        List<StageApiServer> started = new ArrayList<>();
        if (stages < 2) {
            return started;
        }
        StringBuilder listed = new StringBuilder();
        for (int i = 1; i < stages; i++) {
            String name = i == 1 ? "staging" : i == stages - 1 ? "prod" : "stage-" + (i + 1);
            StageApiServer stage = StageApiServer.start(name, dir, first);
            started.add(stage);
            Kpack.namespace(stage.adminClient(), "demo");
            Path kubeconfig = dir.resolve("kubeconfig-" + name);
            Files.writeString(kubeconfig, stage.kubeconfig());
            first.adminClient().secrets().inNamespace("demo").resource(new SecretBuilder().withNewMetadata()
                    .withName(name + "-kubeconfig").endMetadata().addToStringData("kubeconfig", stage.kubeconfig())
                    .build()).createOr(r -> r.update());
            listed.append(name).append(' ').append(stage.port()).append(' ').append(kubeconfig).append('\n');
        }
        Files.writeString(dir.resolve("stages"), listed.toString());
        return started;
    }
}
