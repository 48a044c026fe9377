package dev.rekon.webhooks.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.annotation.Annotation;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.util.TypeLiteral;

import org.junit.jupiter.api.Test;

import dev.rekon.core.InvalidEventException;
import dev.rekon.webhooks.DeliveryLedger;

/** What reaches the router, and when a delivery id is kept, without an application around it. */
class GitPushRoutingTest {

    static final GitPush PUSH = new GitPush("d1", Set.of("github.com/acme/state"), "main", false, "abc");

    static GitWebhookRoutes routes(List<GitPushRouter> beans) {
        GitWebhookRoutes routes = new GitWebhookRoutes();
        routes.ledger = new DeliveryLedger(100);
        routes.routers = new Beans(beans);
        return routes;
    }

    @Test
    void withoutARouterSaysNoDeclaredStateFollowsTheBranch() {
        GitWebhookRoutes.Answer answer = routes(List.of()).route(PUSH);
        assertEquals(GitPushRouter.NO_DECLARED_STATE, answer.reply().reason());
        assertEquals("no DeclaredState follows github.com/acme/state@main", answer.reply().message());
        assertEquals("github.com/acme/state", answer.repository());
    }

    @Test
    void neverCallsTheRouterForADeletedBranch() {
        GitPushRouter refuses = p -> {
            throw new AssertionError("routed " + p);
        };
        GitPush deleted = new GitPush("d2", PUSH.repositoryUrls(), "main", true, "0000000000000000000000000000000000000000");
        assertEquals(GitWebhookRoutes.BRANCH_DELETED, routes(List.of(refuses)).route(deleted).reply().reason());
    }

    @Test
    void releasesTheDeliveryIdWhenTheRouterFails() {
        int[] calls = { 0 };
        GitPushRouter invalidOnce = p -> {
            if (calls[0]++ == 0) {
                throw new InvalidEventException("no such branch");
            }
            return dev.rekon.core.Reply.unchanged(GitPushRouter.NO_DECLARED_STATE, "none", null);
        };
        GitWebhookRoutes routes = routes(List.of(invalidOnce));
        assertThrows(InvalidEventException.class, () -> routes.route(PUSH));
        assertEquals(GitPushRouter.NO_DECLARED_STATE, routes.route(PUSH).reply().reason());
        assertEquals("DuplicateDelivery", routes.route(PUSH).reply().reason());
        assertEquals(2, calls[0]);
    }

    /** The one or no router bean, as CDI would hand them over. */
    private record Beans(List<GitPushRouter> beans) implements Instance<GitPushRouter> {

        @Override
        public GitPushRouter get() {
            return beans.get(0);
        }

        @Override
        public Iterator<GitPushRouter> iterator() {
            return beans.iterator();
        }

        @Override
        public boolean isUnsatisfied() {
            return beans.isEmpty();
        }

        @Override
        public boolean isAmbiguous() {
            return beans.size() > 1;
        }

        @Override
        public Instance<GitPushRouter> select(Annotation... qualifiers) {
            return this;
        }

        @Override
        public <U extends GitPushRouter> Instance<U> select(Class<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <U extends GitPushRouter> Instance<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void destroy(GitPushRouter instance) {
        }

        @Override
        public Handle<GitPushRouter> getHandle() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Iterable<? extends Handle<GitPushRouter>> handles() {
            throw new UnsupportedOperationException();
        }
    }
}
