package dev.rekon.webhooks.git;

import java.util.Locale;

/**
 * Decides when two repository URLs name the same repository: every clone, web and ssh form becomes one key
 * {@code host/owner/repo} (host lower-cased; path as written, without {@code .git}, trailing slashes, query or
 * fragment; user info dropped). A non-default port is kept for http(s), where it tells servers apart; ssh and
 * git-protocol ports are dropped, since they differ from the web port of the same server. So
 * {@code https://GitHub.com/acme/shop.git}, {@code git@github.com:acme/shop.git} and
 * {@code ssh://git@github.com:22/acme/shop} are all {@code github.com/acme/shop}.
 */
public final class RepoUrls {

    private RepoUrls() {
    }

    /** The key of {@code url}; null for a blank value or one without both a host and a path. */
    public static String normalise(String url) {
        if (url == null || url.isBlank()) {
            return null;
        }
        String u = url.trim();
        int cut = firstOf(u, '?', '#');
        if (cut >= 0) {
            u = u.substring(0, cut);
        }
        int scheme = u.indexOf("://");
        String authority;
        String path;
        String defaultPort = null;
        boolean keepPort;
        if (scheme > 0) {
            String s = u.substring(0, scheme).toLowerCase(Locale.ROOT);
            String rest = u.substring(scheme + 3);
            int slash = rest.indexOf('/');
            authority = slash < 0 ? rest : rest.substring(0, slash);
            path = slash < 0 ? "" : rest.substring(slash);
            keepPort = s.equals("http") || s.equals("https");
            defaultPort = s.equals("http") ? "80" : s.equals("https") ? "443" : null;
        } else {
            // scp-like: [user@]host:path
            int colon = u.indexOf(':');
            if (colon <= 0 || u.indexOf('/') >= 0 && u.indexOf('/') < colon) {
                return null;
            }
            authority = u.substring(0, colon);
            path = u.substring(colon + 1);
            keepPort = false;
        }
        String host = host(authority.substring(authority.lastIndexOf('@') + 1), keepPort, defaultPort);
        path = trimPath(path);
        return host == null || host.isEmpty() || path.isEmpty() ? null : host + "/" + path;
    }

    /** Host (and a non-default port when kept), lower-cased; IPv6 literals keep their brackets. */
    private static String host(String hostPort, boolean keepPort, String defaultPort) {
        int portColon = hostPort.startsWith("[") ? hostPort.indexOf(':', Math.max(hostPort.indexOf(']'), 0))
                : hostPort.lastIndexOf(':');
        String host = portColon < 0 ? hostPort : hostPort.substring(0, portColon);
        String port = portColon < 0 ? "" : hostPort.substring(portColon + 1);
        host = host.toLowerCase(Locale.ROOT);
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        return keepPort && !port.isEmpty() && !port.equals(defaultPort) ? host + ":" + port : host;
    }

    private static String trimPath(String path) {
        String p = path;
        boolean changed = true;
        while (changed) {
            changed = false;
            while (p.startsWith("/")) {
                p = p.substring(1);
                changed = true;
            }
            while (p.endsWith("/")) {
                p = p.substring(0, p.length() - 1);
                changed = true;
            }
            if (p.toLowerCase(Locale.ROOT).endsWith(".git")) {
                p = p.substring(0, p.length() - 4);
                changed = true;
            }
        }
        return p;
    }

    private static int firstOf(String s, char a, char b) {
        int i = s.indexOf(a);
        int j = s.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }
}
