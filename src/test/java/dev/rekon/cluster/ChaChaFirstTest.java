package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.Test;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;

/** The client's TLS context as fabric8 makes it, then with ChaCha20-Poly1305 offered first. */
class ChaChaFirstTest {

    @SuppressWarnings("deprecation")
    private static JdkSslContext asFabric8MakesIt(SSLContext context) {
        return new JdkSslContext(context, true, null, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, new String[] { "TLSv1.3", "TLSv1.2" }, false);
    }

    @Test
    void chaCha20ComesFirstAndEveryDefaultSuiteStaysOffered() throws Exception {
        JdkSslContext given = asFabric8MakesIt(SSLContext.getDefault());
        SslContext reordered = ChaChaFirst.reordered(given);

        List<String> suites = reordered.cipherSuites();
        assertEquals(ChaChaFirst.FIRST, suites.subList(0, 3));
        assertTrue(suites.containsAll(given.cipherSuites()), suites + " lacks some of " + given.cipherSuites());
        assertEquals(given.cipherSuites().size() + 3, suites.size(), "netty's defaults offer no ChaCha20: " + suites);
        assertEquals(List.of("TLSv1.3", "TLSv1.2"),
                List.of(reordered.newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT).getEnabledProtocols()));
    }

    @Test
    void aServerContextIsLeftAsItIs() throws Exception {
        @SuppressWarnings("deprecation")
        JdkSslContext server = new JdkSslContext(SSLContext.getDefault(), false, ClientAuth.NONE);
        assertEquals(server, ChaChaFirst.reordered(server));
    }
}
