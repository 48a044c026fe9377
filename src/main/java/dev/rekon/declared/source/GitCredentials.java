package dev.rekon.declared.source;

/**
 * Who Rekon is towards a git server: HTTP Basic username and password (a token goes in the password).
 * A null {@code GitCredentials} means anonymous; a blank username with a password sends the token under a
 * placeholder username, which token-based hosts accept.
 */
public record GitCredentials(String username, String password) {

    /** The username to send: the given one, or {@code git} when only a token was given. */
    public String effectiveUsername() {
        return username == null || username.isBlank() ? "git" : username;
    }

    @Override
    public String toString() {
        return "GitCredentials[username=" + username + ", password=***]";
    }
}
