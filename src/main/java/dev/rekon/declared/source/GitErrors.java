package dev.rekon.declared.source;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.jgit.errors.NoRemoteRepositoryException;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;

/**
 * Sorts JGit's failures into Rekon's two kinds: refused for good (no repository at the URL, something other than
 * git answering there, credentials refused, branch gone) or transient (server unreachable, timed out, answering
 * 5xx). Unknown failures count as transient, so that a retry, not a human, gets the first chance. A refusal carries
 * its reason ({@value #NOT_FOUND}, {@value #UNAUTHENTICATED}), so that no reader of the source looks at a code.
 */
final class GitErrors {

    /** No git repository at the URL (or something other than git answering there), or no such branch. */
    static final String NOT_FOUND = "GitRepositoryNotFound";
    /** The server asked for credentials, or refused the ones given (401 or 403). */
    static final String UNAUTHENTICATED = "AuthenticationFailed";

    private static final Pattern SERVER_ERROR = Pattern.compile("\\b5\\d\\d\\b");
    /** JGit's words for an answer that is no ref advertisement of git's smart or dumb HTTP protocol. */
    private static final List<String> NOT_GIT = List.of("invalid advertisement of", "invalid ref advertisement line",
            "expected pkt-line with", "expected content-type");

    private GitErrors() {
    }

    static RuntimeException sort(GitRemote remote, String action, Exception e) {
        String url = remote.url();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException || t instanceof UnknownHostException
                    || t instanceof InterruptedIOException || t instanceof SocketException) {
                return new TransientFailureException(url + " could not be reached to " + action + " ("
                        + t.getClass().getSimpleName() + ": " + t.getMessage() + "); retrying", e);
            }
        }
        String message = messages(e);
        String lower = message.toLowerCase(Locale.ROOT);
        if (e instanceof NoRemoteRepositoryException || lower.contains("not found") && !lower.contains("branch")) {
            return new RefusedException(404, null, NOT_FOUND, url + " answered 404: there is no git repository at "
                    + "that URL; check spec.git.url (" + message + ")", e);
        }
        if (NOT_GIT.stream().anyMatch(lower::contains)) {
            // A web page or another service at the URL answers, just not with git's protocol: no retry changes that.
            return new RefusedException(404, null, NOT_FOUND, url + " answered, but not as a git repository (a web "
                    + "page?); set spec.git.url to the repository's clone URL, like https://host/org/repo.git ("
                    + message + ")", e);
        }
        if (lower.contains("not authorized") || lower.contains("authentication is required")
                || lower.contains("no credentialsprovider") || lower.contains(" 401")) {
            String fix = remote.credentials() == null
                    ? "the repository needs credentials; set spec.git.secretRef to a Secret with username and "
                            + "password (or a token as password)"
                    : "the credentials in the Secret of spec.git.secretRef were refused; check username and "
                            + "password (or token)";
            return new RefusedException(401, null, UNAUTHENTICATED, url + " answered 401: " + fix, e);
        }
        if (lower.contains("not permitted") || lower.contains(" 403")) {
            return new RefusedException(403, null, UNAUTHENTICATED, url + " answered 403: the credentials in the "
                    + "Secret of spec.git.secretRef may not read this repository; grant them read access", e);
        }
        if (lower.contains("does not have " + remote.ref().toLowerCase(Locale.ROOT))) {
            return new RefusedException(404, null, NOT_FOUND, "branch " + remote.branch() + " does not exist at " + url
                    + "; push it or fix spec.git.branch", e);
        }
        Matcher status = SERVER_ERROR.matcher(message);
        String why = status.find() ? url + " answered " + status.group() : url + " failed";
        return new TransientFailureException(why + " to " + action + " (" + message + "); retrying", e);
    }

    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null && all.length() < 2000; t = t.getCause()) {
            // JGit's API exceptions repeat the message of the transport exception they wrap.
            if (t.getMessage() != null && !all.toString().contains(t.getMessage())) {
                all.append(all.length() == 0 ? "" : ": ").append(t.getMessage());
            }
        }
        return all.toString();
    }
}
