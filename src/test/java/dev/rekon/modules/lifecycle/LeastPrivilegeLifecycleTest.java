package dev.rekon.modules.lifecycle;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.rekon.testing.ServiceAccountTestResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The module lifecycle as the ServiceAccount of {@code knative/rbac}, applying as {@code rekon-module-applier} by
 * impersonation: a module installs and uninstalls, while Rekon's own account could not create the module's CRD itself.
 */
@QuarkusTest
@TestProfile(LeastPrivilegeLifecycleTest.Restricted.class)
class LeastPrivilegeLifecycleTest extends LifecycleFixtures {

    static final String KCP = "lp-lifecycle-kcp";
    static final String TARGET = "lp-lifecycle-target";

    public static class Restricted extends ServiceAccountTestResource.Profile {
        public Restricted() {
            super(KCP + "," + TARGET);
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("rekon.cluster-scoped", "true", "rekon.modules.apply-as", "rekon/rekon-module-applier");
        }
    }

    @Override
    @BeforeEach
    void names() {
        super.names();
        admin.namespaces().withName(kcp).delete();
        kcp = KCP;
        target = TARGET;
        admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(kcp).endMetadata().build())
                .createOr(x -> x.update());
    }

    @Test
    void installsAndUninstallsAsTheApplierAccount() throws Exception {
        assertEquals(false, admin.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder()
                .withNewSpec().withUser("system:serviceaccount:rekon:rekon").withNewResourceAttributes()
                .withGroup("apiextensions.k8s.io").withResource("customresourcedefinitions").withVerb("create")
                .endResourceAttributes().endSpec().build()).getStatus().getAllowed(),
                "Rekon's own account cannot create the module's CRD: the applier does");
        publish("0.4.1", false);
        channel("0.4.1");
        kyma(module);
        kymaEvent().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleInstalled"));
        assertNotNull(object("apps/v1", "Deployment", target, "controller"));
        assertEquals("Ready", ((List<Map<String, Object>>) kymaStatus().get("modules")).get(0).get("state"));

        kyma();
        kymaEvent().body("outcome", equalTo("applied")).body("reason", equalTo("ModuleUninstalled"));
        assertEquals(List.of(), labelled("apps/v1", "Deployment"));
    }
}
