package dev.rekon.webhooks.git;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.rekon.core.InvalidEventException;

/**
 * Reads a push event of any host into the refs it moved: each branch as a {@link GitPush} (repository keys from
 * every URL form the payload carries, {@code refs/heads/<branch>}, deleted when the host says so or {@code after}
 * is all zeros), every other ref (tags, notes) by name, to be answered and never routed. GitHub, Gitea, Forgejo
 * and GitLab move one ref per event; Bitbucket may move several, whose delivery ids then get {@code #<ref>} so
 * that each is de-duplicated on its own. A payload naming no ref or no repository URL is invalid (400).
 */
public final class GitPushParser {

    /** What one push event moved. */
    public record Parsed(List<GitPush> pushes, List<String> otherRefs) {
    }

    static final String HEADS = "refs/heads/";
    private static final List<String> GITHUB_URLS = List.of("clone_url", "html_url", "ssh_url", "git_url");
    private static final List<String> GITLAB_URLS = List.of("git_http_url", "git_ssh_url", "web_url", "http_url",
            "ssh_url", "homepage", "url");

    private record Ref(String name, boolean deleted, String after) {
    }

    public Parsed parse(GitEvent event, JsonNode body, Map<String, String> headers, byte[] raw) {
        Set<String> urls = new LinkedHashSet<>();
        List<Ref> refs = new ArrayList<>();
        switch (event.host()) {
            case GITHUB, GITEA -> {
                urls(body.path("repository"), GITHUB_URLS, urls);
                refs.add(new Ref(ref(event, body), body.path("deleted").asBoolean(false), text(body, "after")));
            }
            case GITLAB -> {
                urls(body.path("project"), GITLAB_URLS, urls);
                urls(body.path("repository"), GITLAB_URLS, urls);
                refs.add(new Ref(ref(event, body), false, text(body, "after")));
            }
            case BITBUCKET -> bitbucket(event, body, urls, refs);
        }
        if (urls.isEmpty()) {
            throw new InvalidEventException("the " + event + " names no repository URL (GitHub and Gitea: "
                    + "repository.clone_url or html_url; GitLab: project.git_http_url or web_url; Bitbucket: "
                    + "repository.links)");
        }
        String delivery = event.host().deliveryId(headers).orElseGet(() -> bodyHash(raw));
        List<GitPush> pushes = new ArrayList<>();
        List<String> other = new ArrayList<>();
        for (Ref r : refs) {
            if (r.name().startsWith(HEADS) && r.name().length() > HEADS.length()) {
                pushes.add(new GitPush(refs.size() == 1 ? delivery : delivery + "#" + r.name(), urls,
                        r.name().substring(HEADS.length()), r.deleted() || zeros(r.after()), r.after()));
            } else {
                other.add(r.name());
            }
        }
        return new Parsed(pushes, other);
    }

    /** Cloud: {@code push.changes[].new/old} (type, name); Server: {@code changes[].ref} and {@code type}. */
    private static void bitbucket(GitEvent event, JsonNode body, Set<String> urls, List<Ref> refs) {
        JsonNode links = body.path("repository").path("links");
        add(urls, text(links, "html", "href"));
        for (String rel : List.of("clone", "self")) {
            for (JsonNode link : links.path(rel)) {
                add(urls, text(link, "href"));
            }
        }
        String fullName = text(body, "repository", "full_name");
        if (urls.isEmpty() && fullName != null && event.type().equals("repo:push")) {
            add(urls, "https://bitbucket.org/" + fullName);
        }
        JsonNode changes = event.type().equals("repo:push") ? body.path("push").path("changes") : body.path("changes");
        if (!changes.isArray() || changes.isEmpty()) {
            throw new InvalidEventException("the " + event + " has no changes (expected "
                    + (event.type().equals("repo:push") ? "push.changes" : "changes") + ")");
        }
        for (JsonNode c : changes) {
            if (c.has("ref") || c.has("refId")) {
                String id = text(c, "refId") != null ? text(c, "refId") : text(c, "ref", "id");
                refs.add(new Ref(required(id, event, "changes[].refId"),
                        "DELETE".equalsIgnoreCase(text(c, "type")), text(c, "toHash")));
            } else {
                JsonNode now = c.path("new");
                JsonNode named = now.isObject() ? now : c.path("old");
                String type = text(named, "type");
                String name = required(text(named, "name"), event, "push.changes[].new.name");
                String prefix = "branch".equals(type) || "named_branch".equals(type) ? HEADS
                        : "tag".equals(type) || "annotated_tag".equals(type) ? "refs/tags/" : "refs/" + type + "/";
                refs.add(new Ref(prefix + name, !now.isObject() || c.path("closed").asBoolean(false),
                        text(now, "target", "hash")));
            }
        }
    }

    private static String ref(GitEvent event, JsonNode body) {
        return required(text(body, "ref"), event, "ref");
    }

    private static String required(String value, GitEvent event, String field) {
        if (value == null) {
            throw new InvalidEventException("the " + event + " has no '" + field + "'; it names no branch or tag");
        }
        return value;
    }

    private static void urls(JsonNode node, List<String> fields, Set<String> into) {
        for (String f : fields) {
            add(into, text(node, f));
        }
    }

    private static void add(Set<String> into, String url) {
        String key = RepoUrls.normalise(url);
        if (key != null) {
            into.add(key);
        }
    }

    static boolean zeros(String sha) {
        return sha != null && !sha.isEmpty() && sha.chars().allMatch(c -> c == '0');
    }

    static String text(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            n = n.path(p);
        }
        return n.isTextual() && !n.asText().isBlank() ? n.asText() : null;
    }

    /** A delivery without the host's id is identified by its body, so that a resent body is a duplicate. */
    static String bodyHash(byte[] raw) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(raw), 0, 16);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
