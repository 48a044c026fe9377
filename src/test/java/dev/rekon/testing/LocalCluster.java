package dev.rekon.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Base64;
import java.util.List;
import java.util.logging.FileHandler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * One real etcd + kube-apiserver per JVM (RBAC on; {@value #CURRENT} unless {@code REKON_K8S_VERSION} names
 * another, such as 1.20.2 for the compatibility run), started through fabric8's kube-api-test in
 * offline mode from the binaries {@code hack/control-plane.sh} lays out, with every CRD installed, both listening
 * on 127.0.0.1 only ({@link LoopbackControlPlane}).
 * No controller-manager runs: tests act as the controllers they need.
 */
public final class LocalCluster {

    /** The Kubernetes release tests run on by default; hack/control-plane.sh builds the same one. */
    public static final String CURRENT = "1.37.2";
    public static final String VERSION = System.getProperty("rekon.k8s.version",
            System.getenv().getOrDefault("REKON_K8S_VERSION", CURRENT));

    /** How long kube-api-test may take to get etcd and the apiserver ready. */
    static final int STARTUP_TIMEOUT_MILLIS = 120_000;

    private static LocalCluster instance;

    private final KubeAPIServer server;
    private final String kubeconfigYaml;
    private final Config adminConfig;
    private final KubernetesClient admin;
    private final Path kubeconfigFile;
    private boolean stopped;

    private LocalCluster(KubeAPIServer server, String kubeconfigYaml, Path kubeconfigFile) {
        this.server = server;
        this.kubeconfigYaml = kubeconfigYaml;
        this.kubeconfigFile = kubeconfigFile;
        this.adminConfig = Config.fromKubeconfig(kubeconfigYaml);
        this.admin = new KubernetesClientBuilder().withConfig(adminConfig).build();
    }

    public static synchronized LocalCluster get() {
        if (instance == null) {
            instance = start(SharedFiles.projectDir().resolve("target/local-cluster"));
            CrdInstaller.install(instance.admin, SharedFiles.projectDir());
            Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "local-cluster-stop"));
        }
        return instance;
    }

    /** The shared cluster of this class loader, if one runs; never starts one. */
    public static synchronized java.util.Optional<LocalCluster> running() {
        return java.util.Optional.ofNullable(instance);
    }

    /**
     * Stops the shared cluster of this class loader, if one runs; a later {@link #get()} starts another. Each
     * application start loads the test classes anew, so each gets a cluster of its own: without this, every
     * earlier one (apiserver and etcd) kept running until the JVM ended.
     */
    public static synchronized void stopShared() {
        LocalCluster running = instance;
        instance = null;
        if (running != null) {
            running.stop();
        }
    }

    /**
     * Starts a second cluster with only the project's own CRDs (no kpack, Kyma or kpush kinds), whose logs and
     * kubeconfig go to {@code workDir}; the caller stops it.
     */
    public static LocalCluster startWithOwnCrdsOnly(Path workDir) {
        LocalCluster cluster = start(workDir);
        CrdInstaller.installOwn(cluster.admin, SharedFiles.projectDir());
        return cluster;
    }

    /** Starts a cluster whose logs and kubeconfig go to {@code workDir}; the caller stops it. */
    public static LocalCluster start(Path workDir) {
        Path cache = cacheDir();
        Path apiserver = cache.resolve("k8s/" + VERSION + "-linux-amd64/kube-apiserver");
        if (!Files.isExecutable(apiserver)) {
            throw new IllegalStateException("no kube-apiserver at " + apiserver
                    + ": run hack/control-plane.sh first (it builds and caches the control-plane binaries)");
        }
        try {
            Files.createDirectories(workDir);
            logTo(workDir.resolve("apiserver.log"));
            sleepPastMidnightIfNeeded();
            KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
                    .withTestDir(LoopbackControlPlane.testDir(cache, VERSION, workDir).toString())
                    .withApiServerFlags(LoopbackControlPlane.APISERVER_FLAGS)
                    .withOfflineMode(true)
                    .withApiServerVersion(VERSION)
                    .withUpdateKubeConfig(false)
                    .withStartupTimeout(STARTUP_TIMEOUT_MILLIS)
                    .build());
            server.start();
            String yaml = server.getKubeConfigYaml();
            Path kubeconfig = workDir.resolve("kubeconfig");
            Files.writeString(kubeconfig, yaml);
            return new LocalCluster(server, yaml, kubeconfig);
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare " + workDir, e);
        }
    }

    /**
     * kube-api-test times a start out by adding the timeout to a {@link LocalTime}, which wraps at midnight: a start
     * begun less than the timeout before midnight has a deadline "earlier" than the clock and fails at its first
     * poll ("Kube API Server did not start properly", leaving its etcd running). A compatibility run crossing
     * midnight failed seven tests so. Such a start waits until just after midnight.
     */
    private static void sleepPastMidnightIfNeeded() {
        long wait = waitBeforeStart(LocalTime.now()).toMillis();
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How long a start at {@code now} waits: until a second past midnight when the timeout would cross it. */
    static Duration waitBeforeStart(LocalTime now) {
        Duration toMidnight = Duration.ofNanos(LocalTime.MAX.toNanoOfDay() - now.toNanoOfDay() + 1);
        Duration margin = Duration.ofMillis(STARTUP_TIMEOUT_MILLIS).plusSeconds(5);
        return toMidnight.compareTo(margin) < 0 ? toMidnight.plusSeconds(1) : Duration.ZERO;
    }

    public static Path cacheDir() {
        String configured = System.getProperty("rekon.cache", System.getenv("REKON_CACHE"));
        return configured != null ? Path.of(configured) : Path.of(System.getProperty("user.home"), ".cache/rekon");
    }

    private static void logTo(Path file) throws IOException {
        Logger logger = Logger.getLogger("io.fabric8.kubeapitest");
        if (logger.getHandlers().length == 0) {
            FileHandler handler = new FileHandler(file.toString(), true);
            handler.setFormatter(new SimpleFormatter());
            logger.addHandler(handler);
            logger.setUseParentHandlers(false);
        }
    }

    public KubernetesClient adminClient() {
        return admin;
    }

    public String kubeconfigYaml() {
        return kubeconfigYaml;
    }

    public Path kubeconfigFile() {
        return kubeconfigFile;
    }

    public String apiServerUrl() {
        return adminConfig.getMasterUrl();
    }

    /**
     * The command line of this cluster's own kube-apiserver: the child process serving its port. Other clusters'
     * apiservers (a stage's, a throttled copy, one of an earlier application start) may run beside it, and their
     * flags (etcd prefix, service-account keys) would not accept this cluster's tokens.
     */
    public List<String> apiServerCommand() {
        String port = String.valueOf(URI.create(apiServerUrl()).getPort());
        for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
            Path cmdline = Path.of("/proc/" + p.pid() + "/cmdline");
            try {
                List<String> args = List.of(new String(Files.readAllBytes(cmdline),
                        StandardCharsets.UTF_8).split("\0"));
                if (!args.isEmpty() && args.get(0).endsWith("kube-apiserver") && servesPort(args, port)) {
                    return args;
                }
            } catch (IOException gone) {
                // the process ended while we looked: not ours
            }
        }
        throw new IllegalStateException("no kube-apiserver child process serves port " + port);
    }

    /**
     * Whether a kube-apiserver of this JVM's (this cluster's, a stage's or a second one on its etcd) answers
     * {@code /readyz} on {@code port}; readyz is readable anonymously (system:public-info-viewer).
     */
    public static boolean apiServerReady(int port) {
        try {
            javax.net.ssl.HttpsURLConnection c = (javax.net.ssl.HttpsURLConnection) URI.create(
                    "https://127.0.0.1:" + port + "/readyz").toURL().openConnection();
            c.setSSLSocketFactory(TRUST_ALL.getSocketFactory());
            c.setHostnameVerifier((h, s) -> true);
            c.setConnectTimeout(500);
            c.setReadTimeout(2000);
            return c.getResponseCode() == java.net.HttpURLConnection.HTTP_OK;
        } catch (IOException notYet) {
            return false;
        }
    }

    // The apiservers' serving certificates are self-signed per start; only readiness is asked, never data.
    private static final javax.net.ssl.SSLContext TRUST_ALL = trustAll();

    private static javax.net.ssl.SSLContext trustAll() {
        try {
            javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
            ctx.init(null, new javax.net.ssl.TrustManager[] { new javax.net.ssl.X509TrustManager() {
                public void checkClientTrusted(java.security.cert.X509Certificate[] c, String a) {
                }

                public void checkServerTrusted(java.security.cert.X509Certificate[] c, String a) {
                }

                public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                    return new java.security.cert.X509Certificate[0];
                }
            } }, null);
            return ctx;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean servesPort(List<String> args, String port) {
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--secure-port=" + port)
                    || (args.get(i).equals("--secure-port") && i + 1 < args.size() && args.get(i + 1).equals(port))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Points Kubernetes clients created from now on (the application's included) at this cluster as
     * cluster admin. The Quarkus client properties are fixed at build time, so the kubeconfig is how a
     * running application is pointed elsewhere, here as on a user's machine.
     */
    public void useAsAdmin() {
        System.setProperty("kubeconfig", kubeconfigFile.toString());
    }

    /** Points Kubernetes clients created from now on at this cluster as the ServiceAccount (its RBAC applies). */
    public void useAs(String namespace, String serviceAccount) {
        System.setProperty("kubeconfig", kubeconfigFor(namespace, serviceAccount).toString());
    }

    /** Writes a kubeconfig that authenticates as the ServiceAccount (a token valid for an hour) and returns it. */
    public Path kubeconfigFor(String namespace, String serviceAccount) {
        Path file = kubeconfigFile.resolveSibling("kubeconfig-" + namespace + "-" + serviceAccount);
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: local
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                users:
                - name: %s
                  user:
                    token: %s
                contexts:
                - name: %s
                  context:
                    cluster: local
                    user: %s
                    namespace: %s
                current-context: %s
                """.formatted(apiServerUrl(), data(adminConfig.getCaCertData(), adminConfig.getCaCertFile()),
                serviceAccount, tokenFor(namespace, serviceAccount), serviceAccount, serviceAccount, namespace,
                serviceAccount);
        try {
            Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file, e);
        }
        return file;
    }

    /** A token from the TokenRequest API (no token Secrets exist without a controller-manager). */
    public String tokenFor(String namespace, String serviceAccount) {
        TokenRequest request = new TokenRequestBuilder().withNewSpec()
                .withExpirationSeconds(3600L).endSpec().build();
        TokenRequest answer = admin.serviceAccounts().inNamespace(namespace).withName(serviceAccount)
                .tokenRequest(request);
        return answer.getStatus().getToken();
    }

    /** A client that authenticates as the ServiceAccount, so RBAC decides what it may do. */
    public KubernetesClient clientAs(String namespace, String serviceAccount) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(apiServerUrl())
                .withCaCertData(data(adminConfig.getCaCertData(), adminConfig.getCaCertFile()))
                .withOauthToken(tokenFor(namespace, serviceAccount))
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static String data(String inline, String file) {
        if (inline != null) {
            return inline;
        }
        try {
            return Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(file)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        admin.close();
        server.stop();
    }
}
