package dev.rekon.testing.knative;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Knative's access check before it creates an ApiServerSource's adapter (pkg/reconciler/apiserversource,
 * {@code runAccessCheck}): one SubjectAccessReview per resource, namespace and verb get, list, watch, as the
 * source's ServiceAccount, for the resource Knative guessed. A refusal means Knative creates no adapter, so it
 * fails the test. A Deployment-run adapter gets the same check, cluster-wide when it watches every namespace.
 */
public final class AccessCheck {

    private static final List<String> VERBS = List.of("get", "list", "watch");

    private AccessCheck() {
    }

    /** What the source's account may not do, as Knative words it; empty when the check passes. */
    public static List<String> missing(KubernetesClient admin, SourceSpec source) {
        String user = "system:serviceaccount:" + source.namespace() + ":" + source.serviceAccount();
        List<String> namespaces = source.allNamespaces() ? List.of("") : source.namespaces(admin);
        List<String> missing = new ArrayList<>();
        for (SourceSpec.Watched w : source.resources()) {
            for (String ns : namespaces) {
                List<String> verbs = VERBS.stream().filter(v -> !allowed(admin, user, ns, v, w)).toList();
                if (!verbs.isEmpty()) {
                    missing.add(String.join(", ", verbs) + " resource \"" + w.resource() + "\" in API group \""
                            + w.group() + "\" in Namespace \"" + ns + "\"");
                }
            }
        }
        return missing;
    }

    private static boolean allowed(KubernetesClient admin, String user, String ns, String verb, SourceSpec.Watched w) {
        SubjectAccessReview review = new SubjectAccessReviewBuilder().withNewSpec().withUser(user)
                .withNewResourceAttributes().withNamespace(ns).withVerb(verb).withGroup(w.group())
                .withResource(w.resource()).endResourceAttributes().endSpec().build();
        return admin.authorization().v1().subjectAccessReview().create(review).getStatus().getAllowed();
    }
}
