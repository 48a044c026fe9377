package dev.rekon.webhooks.git;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides from the request headers alone which host sent a webhook and what kind of event it is: a ping (answered
 * pong), a push (parsed), or another event (accepted, nothing to do). Gitea and Forgejo also send
 * {@code X-GitHub-Event}, so their own headers are read first.
 */
public record GitEvent(Host host, String type, Kind kind) {

    /** The senders, each with the headers naming its event type and its delivery id, first match wins. */
    public enum Host {
        GITEA("Gitea/Forgejo", List.of("x-gitea-event", "x-forgejo-event"), Set.of("push"), Set.of(),
                List.of("x-gitea-delivery", "x-forgejo-delivery", "x-github-delivery")),
        GITLAB("GitLab", List.of("x-gitlab-event"), Set.of("Push Hook", "Tag Push Hook"), Set.of(),
                List.of("x-gitlab-event-uuid")),
        BITBUCKET("Bitbucket", List.of("x-event-key"), Set.of("repo:push", "repo:refs_changed"),
                Set.of("diagnostics:ping"), List.of("x-request-uuid", "x-request-id")),
        GITHUB("GitHub", List.of("x-github-event"), Set.of("push"), Set.of("ping"), List.of("x-github-delivery"));

        private final String display;
        private final List<String> eventHeaders;
        private final Set<String> pushTypes;
        private final Set<String> pingTypes;
        private final List<String> deliveryHeaders;

        Host(String display, List<String> eventHeaders, Set<String> pushTypes, Set<String> pingTypes,
                List<String> deliveryHeaders) {
            this.display = display;
            this.eventHeaders = eventHeaders;
            this.pushTypes = pushTypes;
            this.pingTypes = pingTypes;
            this.deliveryHeaders = deliveryHeaders;
        }

        public String display() {
            return display;
        }

        /**
         * The host's id of this delivery, kept when the host redelivers. Bitbucket Cloud's {@code X-Hook-UUID}
         * names the webhook, not the delivery, so it is not one: every push would be a duplicate of the first.
         */
        public Optional<String> deliveryId(Map<String, String> headers) {
            return deliveryHeaders.stream().map(headers::get).filter(v -> v != null && !v.isBlank()).findFirst();
        }
    }

    public enum Kind {
        PING, PUSH, OTHER
    }

    /** What this endpoint parses, for the answers and the 202. */
    public static final String HANDLED = "push (GitHub, Gitea, Forgejo), Push Hook and Tag Push Hook (GitLab), "
            + "repo:push (Bitbucket Cloud), repo:refs_changed (Bitbucket Server/Data Center)";
    public static final String EXPECTED_HEADERS = "X-GitHub-Event, X-Gitea-Event, X-Forgejo-Event, X-Gitlab-Event "
            + "or X-Event-Key";

    /** @param headers request headers, names lower-cased; empty when no host's event header is present */
    public static Optional<GitEvent> of(Map<String, String> headers) {
        for (Host host : Host.values()) {
            for (String header : host.eventHeaders) {
                String type = headers.get(header);
                if (type != null && !type.isBlank()) {
                    type = type.trim();
                    Kind kind = host.pushTypes.contains(type) ? Kind.PUSH
                            : host.pingTypes.contains(type) ? Kind.PING : Kind.OTHER;
                    return Optional.of(new GitEvent(host, type, kind));
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return host.display + " '" + type + "' event";
    }
}
