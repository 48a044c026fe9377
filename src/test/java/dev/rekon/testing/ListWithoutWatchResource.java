package dev.rekon.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Runs the application as a ServiceAccount of its own, bound in the init argument {@code namespace} only, to the
 * rollouts role of {@code knative/rbac/} less the watch of ImageDeploys (list and get stay).
 */
public class ListWithoutWatchResource implements QuarkusTestResourceLifecycleManager {

    static final String ACCOUNT = "rekon-list-only";
    private String namespace;

    @Override
    public void init(Map<String, String> initArgs) {
        namespace = initArgs.get("namespace");
    }

    @Override
    public Map<String, String> start() {
        LocalCluster cluster = LocalCluster.get();
        KubernetesClient admin = cluster.adminClient();
        Kpack.namespace(admin, "rekon");
        Kpack.namespace(admin, namespace);
        admin.serviceAccounts().inNamespace("rekon").resource(new ServiceAccountBuilder().withNewMetadata()
                .withName(ACCOUNT).withNamespace("rekon").endMetadata().build()).createOr(r -> r.update());
        for (HasMetadata item : ServiceAccountTestResource.load(admin, SharedFiles.projectDir().resolve("knative/rbac"))) {
            if (item instanceof ClusterRole role && "rekon-rollouts".equals(role.getMetadata().getName())) {
                role.getMetadata().setName(ACCOUNT);
                role.getMetadata().setResourceVersion(null);
                for (PolicyRule rule : role.getRules()) {
                    if (rule.getResources().equals(List.of("imagedeploys"))) {
                        rule.setVerbs(rule.getVerbs().stream().filter(v -> !"watch".equals(v)).toList());
                    }
                }
                admin.resource(role).createOr(r -> r.update());
            }
        }
        admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
                .withName(ACCOUNT).withNamespace(namespace).endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", ACCOUNT)
                .addNewSubject().withKind("ServiceAccount").withName(ACCOUNT).withNamespace("rekon").endSubject()
                .build()).createOr(r -> r.update());
        cluster.useAs("rekon", ACCOUNT);
        Map<String, String> config = new HashMap<>();
        config.put("quarkus.http.test-port", String.valueOf(RekonTestResource.port()));
        config.put("rekon.namespaces", namespace);
        config.put("rekon.resync.on-start", "false");
        return config;
    }

    @Override
    public void stop() {
        LocalRegistry.stopShared();
        LocalCluster.stopShared();
    }
}
