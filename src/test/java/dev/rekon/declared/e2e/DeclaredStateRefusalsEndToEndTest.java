package dev.rekon.declared.e2e;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.rekon.testing.Await;
import dev.rekon.testing.RekonTestResource;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * What a DeclaredState refuses, on the real apiserver and git server: content no cluster should be asked to
 * hold (an alias bomb, a huge file, a hundred thousand objects, a kustomization), a repository, path or Secret
 * that is not there, namespaces it may not write, and objects its ServiceAccount may not write. Each is answered
 * 200 {@code rejected} with a reason and a message that says what to fix, and nothing is written or deleted: the
 * last good revision's objects stay, nothing of the refused one appears.
 */
@QuarkusTest
@QuarkusTestResource(value = RekonTestResource.class, restrictToAnnotatedClass = false)
class DeclaredStateRefusalsEndToEndTest extends DeclaredFixtures {

    /** A good revision applied first: {@code keep}, which every refused revision below drops. */
    private String good() {
        String good = work.write("keep.yaml", configMap("keep", "1")).commitAndPush("good");
        declaredState(null);
        event().body("outcome", equalTo("applied"));
        return good;
    }

    /** The refused revision changed nothing: keep is as it was, nothing new is there, the status names it. */
    private void nothingChanged(String good, String keepVersion, String reason) {
        assertNotNull(cm("keep"), "nothing is pruned");
        assertEquals(keepVersion, cm("keep").getMetadata().getResourceVersion(), "nor written");
        assertEquals(List.of("keep"), labelled("ConfigMap"), "nothing of the refused revision is applied");
        assertEquals("main@sha1:" + good, status().path("revision").asText(), "the last good revision stays");
        assertEquals(1, status().at("/inventory/entries").size());
        assertEquals("False", condition("Ready").path("status").asText());
        assertEquals(reason, condition("Ready").path("reason").asText());
    }

    private ValidatableResponse rejected(ValidatableResponse reply, String reason) {
        return reply.statusCode(200).body("outcome", equalTo("rejected")).body("reason", equalTo(reason));
    }

    @Test
    void anAliasBombIsRefusedBeforeItExpands() {
        String good = good();
        String rv = cm("keep").getMetadata().getResourceVersion();

        // Billion laughs: nine levels of nine aliases, more aliases than a file may have.
        StringBuilder bomb = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n"
                + "  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'i'; c++) {
            String prev = "*" + (char) (c - 1);
            bomb.append("  ").append(c).append(": &").append(c).append(" [").append(String.join(", ",
                    Collections.nCopies(9, prev))).append("]\n");
        }
        work.write("bomb.yaml", bomb.toString()).write("new.yaml", configMap("new", "1")).delete("keep.yaml")
                .commitAndPush("bomb");
        rejected(reconcile(), "AliasLimit").body("message", allOf(containsString("bomb.yaml"), containsString("aliases")));
        nothingChanged(good, rv, "AliasLimit");

        // Few aliases, each expanding nine times: 9^5 nodes from 45 aliases.
        StringBuilder small = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\nx:\n"
                + "  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'f'; c++) {
            String prev = "*" + (char) (c - 1);
            small.append("  ").append(c).append(": &").append(c).append(" [").append(String.join(", ",
                    Collections.nCopies(9, prev))).append("]\n");
        }
        work.write("bomb.yaml", small.toString()).commitAndPush("smaller bomb");
        rejected(reconcile(), "AliasLimit").body("message", allOf(containsString("bomb.yaml"),
                containsString("fewer aliases")));
        nothingChanged(good, rv, "AliasLimit");
    }

    @Test
    void aTwentyMegabyteFileIsRefusedUnread() {
        String good = good();
        String rv = cm("keep").getMetadata().getResourceVersion();
        byte[] big = new byte[20 << 20];
        java.util.Arrays.fill(big, (byte) 'a');
        byte[] head = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  v: ".getBytes();
        System.arraycopy(head, 0, big, 0, head.length);
        work.write("big.yaml", big).write("new.yaml", configMap("new", "1")).delete("keep.yaml").commitAndPush("big");
        rejected(reconcile(), "TooLarge").body("message", allOf(containsString("big.yaml"),
                containsString("rekon.declared.max-file-bytes"), containsString("split it")));
        nothingChanged(good, rv, "TooLarge");
    }

    @Test
    void aHundredThousandObjectsAreRefusedWhole() {
        String good = good();
        String rv = cm("keep").getMetadata().getResourceVersion();
        for (int f = 0; f < 10; f++) {
            StringBuilder list = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n");
            for (int i = 0; i < 10_000; i++) {
                list.append("- {apiVersion: v1, kind: ConfigMap, metadata: {name: c").append(f * 10_000 + i)
                        .append("}}\n");
            }
            work.write("many/list-" + f + ".yaml", list.toString());
        }
        work.delete("keep.yaml").commitAndPush("many");
        rejected(reconcile(), "TooManyObjects").body("message", allOf(containsString("many/list-1.yaml"),
                containsString("rekon.declared.max-objects"), containsString("spec.git.path")));
        nothingChanged(good, rv, "TooManyObjects");
    }

    @Test
    void aKustomizationIsRefusedAskingForTheRenderedOutput() {
        String good = good();
        String rv = cm("keep").getMetadata().getResourceVersion();
        work.write("overlay/kustomization.yaml", "resources: [../new.yaml]\n").write("new.yaml", configMap("new", "1"))
                .delete("keep.yaml").commitAndPush("kustomize");
        rejected(reconcile(), "KustomizeUnsupported").body("message", allOf(containsString("overlay/kustomization.yaml"),
                containsString("kustomize build")));
        nothingChanged(good, rv, "KustomizeUnsupported");
    }

    @Test
    void aKindTheServerDoesNotServeIsRefusedWholeNamingItsFile() {
        String good = good();
        String rv = cm("keep").getMetadata().getResourceVersion();
        // A ConfigMap sorts before the Thing and one after it: neither may be applied.
        String tip = work.write("a-first.yaml", configMap("first", "1"))
                .write("thing.yaml", "apiVersion: nope.example/v1\nkind: Thing\nmetadata: {name: t1}\n")
                .write("z-last.yaml", configMap("last", "1")).delete("keep.yaml").commitAndPush("a Thing");

        rejected(reconcile(), "KindNotServed").body("message", allOf(containsString("thing.yaml:1"),
                containsString("Thing " + ns + "/t1"), containsString("nope.example/v1")));
        nothingChanged(good, rv, "KindNotServed");
        assertNull(cm("first"), "nothing sorting before the Thing is applied");
        assertTrue(condition("Ready").path("message").asText().contains("thing.yaml:1"),
                condition("Ready").toString());
        assertTrue(condition("Ready").path("message").asText().contains("t1"), condition("Ready").toString());
        assertEquals("main@sha1:" + tip, status().path("lastAttemptedRevision").asText(), "the tip was attempted");

        // The same refusal from the DeclaredState's own event and from a resync: 200, never a 5xx.
        rejected(event(), "KindNotServed");
        resync().body("areas[0].failed", equalTo(1)).body("areas[0].objects[0].reason", equalTo("KindNotServed"));
        nothingChanged(good, rv, "KindNotServed");
    }

    @Test
    void aUrlWithoutARepositoryIsRefusedAndNothingIsWritten() {
        work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState("{url: \"" + git.url("no-such-" + repo) + "\", branch: main, secretRef: {name: git-creds}}",
                "  namespaces: [" + ns + "]\n");
        rejected(event(), "GitRepositoryNotFound").body("message", allOf(containsString("no-such-" + repo),
                containsString("spec.git.url")));
        assertEquals(List.of(), labelled("ConfigMap"));
        assertEquals("GitRepositoryNotFound", condition("Ready").path("reason").asText());
        assertTrue(status().path("revision").isMissingNode(), "no revision was applied");
    }

    @Test
    void aWebPageThatIsNoRepositoryIsRefusedNotRetried() throws Exception {
        // A URL someone copied from a browser: the server answers every path 200 with HTML.
        HttpServer page = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        page.createContext("/", exchange -> {
            byte[] html = "<!DOCTYPE html>\n<html><body>team apps</body></html>\n".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, html.length);
            try (var out = exchange.getResponseBody()) {
                out.write(html);
            }
        });
        page.start();
        try {
            String url = "http://127.0.0.1:" + page.getAddress().getPort() + "/team/apps";
            declaredState("{url: \"" + url + "\", branch: main}", "  namespaces: [" + ns + "]\n");
            rejected(event(), "GitRepositoryNotFound").body("message", allOf(containsString(url),
                    containsString("spec.git.url")));
            assertEquals(List.of(), labelled("ConfigMap"));
        } finally {
            page.stop(0);
        }
    }

    @Test
    void aPathThatDoesNotExistIsRefusedInsteadOfPruningEverything() {
        String good = work.write("apps/settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState(gitSpec(", path: apps"), "  namespaces: [" + ns + "]\n");
        event().body("outcome", equalTo("applied"));
        String rv = cm("settings").getMetadata().getResourceVersion();

        setSpec("git", Map.of("url", git.url(repo), "branch", "main", "secretRef", Map.of("name", "git-creds"),
                "path", "nope/here"));
        rejected(reconcile(), "PathNotFound").body("message", allOf(containsString("nope/here"),
                containsString("spec.git.path")));
        assertEquals(rv, cm("settings").getMetadata().getResourceVersion(), "nothing is pruned nor written");
        assertEquals("main@sha1:" + good, status().path("revision").asText());

        setSpec("git", Map.of("url", git.url(repo), "branch", "main", "secretRef", Map.of("name", "git-creds"),
                "path", "apps/settings.yaml"));
        rejected(reconcile(), "PathNotFound").body("message", containsString("a file, not a folder"));
        assertNotNull(cm("settings"));
    }

    @Test
    void aSecretThatDoesNotExistIsNamed() {
        work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState("{url: \"" + git.url(repo) + "\", branch: main, secretRef: {name: missing}}",
                "  namespaces: [" + ns + "]\n");
        rejected(event(), "SecretNotFound").body("message", allOf(containsString(ns + "/missing"),
                containsString("spec.git.secretRef")));
        assertEquals(List.of(), labelled("ConfigMap"));
    }

    @Test
    void anotherNamespaceInSpecNamespacesIsRefusedByDefault() {
        String other = ns + "-other";
        namespace(other);
        work.write("settings.yaml", configMap("settings", "1"))
                .write("there.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: there, namespace: " + other
                        + "}\n")
                .commitAndPush("first");
        declaredState(gitSpec(""), "  namespaces: [" + ns + ", " + other + "]\n");
        rejected(event(), "NamespaceNotAllowed").body("message", allOf(containsString(other),
                containsString("rekon.declared.cross-namespace")));
        assertEquals(List.of(), labelled("ConfigMap"));
        assertNull(admin.configMaps().inNamespace(other).withName("there").get());
        assertEquals("NamespaceNotAllowed", condition("Ready").path("reason").asText());
    }

    @Test
    void objectsAreWrittenAsTheServiceAccountAndRefusedWhereItHasNoRights() {
        admin.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("deployer").endMetadata().build()).create();
        work.write("settings.yaml", configMap("settings", "1")).commitAndPush("first");
        declaredState(gitSpec(""), "  namespaces: [" + ns + "]\n  serviceAccountName: deployer\n");
        String user = "system:serviceaccount:" + ns + ":deployer";

        rejected(event(), "ApiRefused").body("message", allOf(containsString(user), containsString("configmaps")))
                .body("objects.name", hasItem("settings"));
        assertNull(cm("settings"), "nothing is written as Rekon itself");

        admin.rbac().roles().inNamespace(ns).resource(new RoleBuilder().withNewMetadata().withName("deployer")
                .endMetadata().withRules(new PolicyRuleBuilder().withApiGroups("").withResources("configmaps")
                        .withVerbs("get", "list", "watch").build())
                .build()).create();
        admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder().withNewMetadata()
                .withName("deployer").endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "deployer")
                .addNewSubject().withKind("ServiceAccount").withName("deployer").withNamespace(ns).endSubject()
                .build()).create();
        try (KubernetesClient deployer = new KubernetesClientBuilder().withConfig(new ConfigBuilder(admin.getConfiguration())
                .withImpersonateUsername(user).build()).build()) {
            Await.until("the role to be in force", Duration.ofSeconds(10), () -> {
                try {
                    deployer.configMaps().inNamespace(ns).list();
                    return true;
                } catch (KubernetesClientException e) {
                    return false;
                }
            });
        }

        // It may read ConfigMaps now, not write them: the apply itself is refused, naming the object.
        rejected(reconcile(), "ApiRefused").body("message", allOf(containsString("apply ConfigMap " + ns + "/settings"),
                containsString(user), containsString("patch"))).body("objects.name", hasItem("settings"));
        assertNull(cm("settings"));
        assertEquals("False", condition("Ready").path("status").asText(), "the refusal is the status too");
        assertEquals("ApiRefused", condition("Ready").path("reason").asText());
        assertEquals(1, status().at("/inventory/entries").size(), "what may exist stays recorded");

        admin.rbac().roles().inNamespace(ns).withName("deployer").edit(r -> new RoleBuilder(r).withRules(
                new PolicyRuleBuilder().withApiGroups("").withResources("configmaps")
                        .withVerbs("get", "list", "watch", "create", "update", "patch", "delete").build()).build());
        List<String> replies = new ArrayList<>();
        Await.until("the write rights to be in force", Duration.ofSeconds(10), () -> {
            JsonPath reply = reconcile().statusCode(200).extract().jsonPath();
            replies.add(reply.getString("outcome") + " " + reply.getString("reason"));
            return cm("settings") != null;
        });
        assertEquals("applied RevisionApplied", replies.get(replies.size() - 1), replies.toString());
        assertTrue(replies.subList(0, replies.size() - 1).stream().allMatch("rejected ApiRefused"::equals),
                replies.toString());
        reconcile().statusCode(200).body("outcome", equalTo("unchanged")).body("reason", equalTo("InSync"));
        assertEquals("1", cm("settings").getData().get("value"));
        assertTrue(cm("settings").getMetadata().getManagedFields().stream()
                .anyMatch(m -> "rekon".equals(m.getManager()) && "Apply".equals(m.getOperation())),
                "applied server-side by field manager rekon");

        // A resync lists its namespace for orphans as the ServiceAccount too: what it may not list is skipped, and
        // what it may is put back.
        admin.configMaps().inNamespace(ns).withName("settings").edit(c -> {
            c.getData().put("value", "by hand");
            return c;
        });
        resync().body("reason", equalTo("Converged")).body("areas[0].changed", equalTo(1));
        assertEquals("1", cm("settings").getData().get("value"));

        // What the role does not grant stays refused, naming the object.
        work.write("account.yaml", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: worker}\n")
                .commitAndPush("a ServiceAccount");
        rejected(reconcile(), "ApiRefused").body("message", allOf(containsString(user), containsString("serviceaccounts")))
                .body("objects.name", hasItem("worker"));
        assertNull(admin.serviceAccounts().inNamespace(ns).withName("worker").get());
    }
}
