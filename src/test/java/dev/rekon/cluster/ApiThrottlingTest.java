package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.rekon.bench.SecondApiServer;
import dev.rekon.manifests.apply.Impersonation;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A real apiserver that throttles early (one read and one write in flight; system:masters is never throttled, so
 * the client is a ServiceAccount, or impersonates one): every call of Rekon's clients still answers, each 429 retried
 * after the server's Retry-After and counted in {@code rekon.api.throttled}, and no retry closes a connection under
 * another call.
 */
class ApiThrottlingTest {

    static final String NS = "throttled";
    static SecondApiServer tight;

    @BeforeAll
    static void start() {
        LocalCluster cluster = LocalCluster.get();
        KubernetesClient admin = cluster.adminClient();
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                .serverSideApply();
        admin.serviceAccounts().inNamespace(NS).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("reader").endMetadata().build()).serverSideApply();
        admin.rbac().roles().inNamespace(NS).resource(new RoleBuilder().withNewMetadata().withName("read-configmaps")
                .endMetadata().addNewRule().withApiGroups("").withResources("configmaps").withVerbs("list")
                .endRule().build()).serverSideApply();
        admin.rbac().roleBindings().inNamespace(NS).resource(new RoleBindingBuilder().withNewMetadata()
                .withName("reader-view").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role").withName("read-configmaps").endRoleRef().addNewSubject().withKind("ServiceAccount")
                .withName("reader").withNamespace(NS).endSubject().build()).serverSideApply();
        admin.configMaps().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("one").endMetadata().build()).serverSideApply();
        tight = SecondApiServer.start(cluster, Path.of("target", "throttled-apiserver"), Map.of(
                "--max-requests-inflight", "1", "--max-mutating-requests-inflight", "1",
                "--enable-priority-and-fairness", "false"));
    }

    @AfterAll
    static void stop() {
        if (tight != null) {
            tight.kill();
        }
    }

    @Test
    void everyThrottledCallIsRetriedAfterRetryAfterAndCounted() throws Exception {
        LocalCluster cluster = LocalCluster.get();
        Config reader = new ConfigBuilder(cluster.clientAs(NS, "reader").getConfiguration())
                .withMasterUrl("https://127.0.0.1:" + tight.port()).build();
        everyCallAnsweredThrottledAndCounted(reader);
    }

    /** The clients impersonating a ServiceAccount (manifests are applied as one) are retried and counted alike. */
    @Test
    void anImpersonatingClientIsRetriedAndCountedAlike() throws Exception {
        LocalCluster cluster = LocalCluster.get();
        Config asReader = new ConfigBuilder(cluster.adminClient().getConfiguration())
                .withMasterUrl("https://127.0.0.1:" + tight.port())
                .withImpersonateUsername(Impersonation.username(NS, "reader")).build();
        everyCallAnsweredThrottledAndCounted(asReader);
        try (KubernetesClient client = new ApiCallMetrics(new SimpleMeterRegistry()).client(asReader)) {
            KubernetesClientException refused = assertThrows(KubernetesClientException.class,
                    () -> client.configMaps().inNamespace("default").list());
            assertEquals(403, refused.getCode(), "the calls went out as the ServiceAccount, not as the admin");
        }
    }

    /**
     * Sixteen calls at once, twice over, on a server that serves one read at a time: some are throttled. The
     * calls that were throttled are sent again after one another's Retry-After, on connections others are using.
     */
    private static void everyCallAnsweredThrottledAndCounted(Config config) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        KubernetesClient client = new ApiCallMetrics(registry).client(config);
        int parallel = 16;
        ExecutorService threads = Executors.newFixedThreadPool(parallel);
        long start = System.nanoTime();
        try {
            for (int round = 0; round < 2; round++) {
                CyclicBarrier together = new CyclicBarrier(parallel);
                List<Future<Integer>> calls = new ArrayList<>();
                for (int i = 0; i < parallel; i++) {
                    calls.add(threads.submit(() -> {
                        together.await();
                        return client.configMaps().inNamespace(NS).list().getItems().size();
                    }));
                }
                for (Future<Integer> call : calls) {
                    assertEquals(1, call.get(), "every call answered");
                }
            }
        } finally {
            threads.shutdownNow();
            client.close();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double throttled = registry.find(ApiCallMetrics.THROTTLED).counters().stream().mapToDouble(c -> c.count())
                .sum();
        assertTrue(throttled > 0, "the server answered 429 and each was counted");
        assertTrue(seconds >= 1, "a throttled call waited the server's Retry-After (1 s) before its retry: " + seconds);
        assertTrue(registry.find(ApiCallMetrics.TIMER).tag("status", "429").timer() != null,
                "the throttled attempts are timed as calls too");
        assertNull(registry.find(ApiCallMetrics.TIMER).tag("status", "connection-closed").timer(),
                "no retry closed a connection under another call, so none had to be sent again");
    }
}
