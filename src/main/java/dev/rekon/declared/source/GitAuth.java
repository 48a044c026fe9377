package dev.rekon.declared.source;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import org.eclipse.jgit.api.TransportCommand;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.TransportHttp;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;

/**
 * How a git command authenticates to a remote: its username and password (a token as password), answered to a
 * challenge and also sent with every request, as git does once it knows a server wants them; without that each
 * request of an ls-remote or a fetch is first answered 401 and sent again, doubling its round trips.
 */
final class GitAuth {

    private GitAuth() {
    }

    /** A transport opened by hand, with the remote's credentials as {@link #as} gives them to a command. */
    static void configure(Transport transport, GitRemote remote) {
        GitCredentials c = remote.credentials();
        if (c == null || c.password() == null) {
            return;
        }
        transport.setCredentialsProvider(new UsernamePasswordCredentialsProvider(c.effectiveUsername(), c.password()));
        if (transport instanceof TransportHttp http) {
            http.setAdditionalHeaders(Map.of("Authorization", basic(c)));
        }
    }

    /** The command with the remote's credentials, when it has any. */
    static <C extends TransportCommand<C, ?>> C as(C command, GitRemote remote) {
        GitCredentials c = remote.credentials();
        if (c == null || c.password() == null) {
            return command;
        }
        String basic = basic(c);
        return command.setCredentialsProvider(new UsernamePasswordCredentialsProvider(c.effectiveUsername(), c.password()))
                .setTransportConfigCallback(t -> {
                    if (t instanceof TransportHttp http) {
                        http.setAdditionalHeaders(Map.of("Authorization", basic));
                    }
                });
    }

    private static String basic(GitCredentials c) {
        return "Basic " + Base64.getEncoder().encodeToString((c.effectiveUsername() + ":" + c.password())
                .getBytes(StandardCharsets.UTF_8));
    }
}
