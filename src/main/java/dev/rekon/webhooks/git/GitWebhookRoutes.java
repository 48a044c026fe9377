package dev.rekon.webhooks.git;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.rekon.core.Decisions;
import dev.rekon.core.InvalidEventException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.web.ErrorReplies;
import dev.rekon.webhooks.DeliveryLedger;
import dev.rekon.webhooks.PushDispatcher;
import dev.rekon.webhooks.WebhookRoutes;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /webhooks/git}: turns a git host's push webhook into a trigger for whatever follows the branch.
 * Checks, in order: body size (413), signature or token (401), content type (415), event header (400), then
 * answers a ping (200, pong) or another event (202) without parsing, and parses a push (400 when malformed). A
 * branch push is handed to the {@link GitPushRouter} once per delivery id (a duplicate, a deleted branch or a tag
 * is answered 200 and triggers nothing); 503 when the router failed transiently, so the delivery can be repeated.
 * What a push decided is recorded with the {@link Decisions} as {@value #DECISION_TYPE}, as an event's is.
 */
@Singleton
public class GitWebhookRoutes {

    private static final Logger LOG = Logger.getLogger(GitWebhookRoutes.class);
    public static final String ENDPOINT = "git";
    public static final String PONG = "Pong";
    public static final String NOT_HANDLED = "EventNotHandled";
    public static final String NOT_A_BRANCH = "NotABranch";
    public static final String BRANCH_DELETED = "BranchDeleted";
    /** The type a push's decisions are recorded under. */
    public static final String DECISION_TYPE = "git.push";

    /** The answer about one ref; {@code repository} is the first repository key, {@code reply} what was done. */
    @RegisterForReflection
    public record Answer(String endpoint, String repository, String branch, String delivery, Reply reply) {
    }

    /** The answer to a Bitbucket push that moved several refs: one {@link Answer} each. */
    @RegisterForReflection
    public record Answers(String endpoint, List<Answer> pushes) {
    }

    @Inject
    Config config;

    @Inject
    DeliveryLedger ledger;

    @Inject
    Instance<GitPushRouter> routers;

    @Inject
    Decisions decisions;

    @ConfigProperty(name = "rekon.webhooks.max-body-bytes", defaultValue = "1048576")
    int maxBodyBytes;

    private GitAuthenticator authenticator;
    private final GitPushParser parser = new GitPushParser();
    private ObjectMapper json;

    @PostConstruct
    void init() {
        authenticator = new GitAuthenticator(name -> config.getOptionalValue(name, String.class));
        json = new ObjectMapper();
        json.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
    }

    void install(@Observes Router router) {
        router.post(WebhookRoutes.GIT_PATH).order(WebhookRoutes.ORDER).blockingHandler(this::handle, false);
        router.route(WebhookRoutes.GIT_PATH).order(WebhookRoutes.ORDER)
                .handler(ctx -> ErrorReplies.methodNotAllowed(ctx, "POST"));
    }

    void handle(RoutingContext ctx) {
        byte[] bytes = ctx.body() == null || ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
        if (bytes.length > maxBodyBytes) {
            end(ctx, 413, "BodyTooLarge", "the body has " + bytes.length + " bytes; this endpoint accepts at most "
                    + maxBodyBytes + " (rekon.webhooks.max-body-bytes)");
            return;
        }
        Map<String, String> headers = new HashMap<>();
        ctx.request().headers().forEach(h -> headers.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
        Optional<String> refusal = authenticator.refusal(headers, bytes);
        if (refusal.isPresent()) {
            LOG.warnf("refused git webhook from %s: %s", ctx.request().remoteAddress(), refusal.get());
            end(ctx, 401, "Unauthorized", refusal.get());
            return;
        }
        if (!isJson(headers.get("content-type"))) {
            end(ctx, 415, "UnsupportedMediaType", "Content-Type '" + headers.get("content-type")
                    + "' is not application/json; set the webhook's content type to application/json");
            return;
        }
        Optional<GitEvent> event = GitEvent.of(headers);
        if (event.isEmpty()) {
            end(ctx, 400, "NoEventType", "no event type header; expected " + GitEvent.EXPECTED_HEADERS);
            return;
        }
        GitEvent e = event.get();
        String delivery = e.host().deliveryId(headers).orElse(null);
        switch (e.kind()) {
            case PING -> reply(ctx, 200, new Answer(ENDPOINT, null, null, delivery, Reply.unchanged(PONG, "pong: "
                    + e + " received; this endpoint handles " + GitEvent.HANDLED, null)));
            case OTHER -> reply(ctx, 202, new Answer(ENDPOINT, null, null, delivery, Reply.unchanged(NOT_HANDLED,
                    e + " accepted, nothing to do; this endpoint handles " + GitEvent.HANDLED, null)));
            case PUSH -> push(ctx, e, headers, bytes);
        }
    }

    private void push(RoutingContext ctx, GitEvent event, Map<String, String> headers, byte[] bytes) {
        try {
            GitPushParser.Parsed parsed = parser.parse(event, parse(bytes), headers, bytes);
            List<Answer> answers = new ArrayList<>();
            for (GitPush p : parsed.pushes()) {
                answers.add(route(p));
            }
            String delivery = event.host().deliveryId(headers).orElse(null);
            for (String ref : parsed.otherRefs()) {
                answers.add(new Answer(ENDPOINT, parsed.pushes().isEmpty() ? null : parsed.pushes().get(0).repository(),
                        null, delivery, Reply.unchanged(NOT_A_BRANCH, ref + " is not a branch; only branch pushes "
                                + "(refs/heads/...) trigger anything", null).with("ref", ref)));
            }
            answers.forEach(a -> decisions.record(DECISION_TYPE, a.reply()));
            reply(ctx, 200, answers.size() == 1 ? answers.get(0) : new Answers(ENDPOINT, answers));
        } catch (InvalidEventException ex) {
            decisions.record(DECISION_TYPE, "invalid", "InvalidEvent", ex.getMessage(), List.of());
            end(ctx, 400, "InvalidEvent", ex.getMessage());
        } catch (TransientFailureException ex) {
            LOG.warnf("transient failure on git webhook: %s", ex.getMessage());
            String message = ex.getMessage() + "; redeliver the webhook (GitHub, Gitea and GitLab redeliver only when "
                    + "asked to)";
            decisions.record(DECISION_TYPE, "transient", "TransientFailure", message, List.of());
            end(ctx, 503, "TransientFailure", message);
        }
    }

    /** Hands one branch push to the router, once per delivery id; the id is released when routing failed. */
    Answer route(GitPush push) {
        String at = push.repository() + "@" + push.branch();
        if (push.deleted()) {
            return answer(push, Reply.unchanged(BRANCH_DELETED, "branch " + at + " was deleted; nothing is "
                    + "triggered and nothing is deleted (what follows it keeps what it applied)", null));
        }
        String key = "git:" + push.deliveryId();
        if (!ledger.claim(key)) {
            return answer(push, Reply.unchanged(PushDispatcher.DUPLICATE, "delivery " + push.deliveryId() + " ("
                    + at + ") was already handled; a redelivery changes nothing", null));
        }
        try {
            if (routers.isUnsatisfied()) {
                return answer(push, Reply.unchanged(GitPushRouter.NO_DECLARED_STATE, "no DeclaredState follows "
                        + at, null));
            }
            Reply reply = routers.get().pushed(push);
            LOG.infof("git push %s (delivery %s): %s", at, push.deliveryId(), reply == null ? null : reply.reason());
            return answer(push, reply);
        } catch (RuntimeException e) {
            ledger.release(key);
            throw e;
        }
    }

    private static Answer answer(GitPush push, Reply reply) {
        return new Answer(ENDPOINT, push.repository(), push.branch(), push.deliveryId(), reply);
    }

    JsonNode parse(byte[] bytes) {
        return WebhookRoutes.object(json, bytes);
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
                .equalsIgnoreCase("application/json");
    }

    private static void reply(RoutingContext ctx, int status, Object answer) {
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(Json.encode(answer));
    }

    private static void end(RoutingContext ctx, int status, String error, String message) {
        ErrorReplies.send(ctx, status, error, message);
    }
}
