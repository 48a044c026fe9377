package dev.rekon.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.util.Arrays;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The test control plane listens on loopback only: its apiserver and its etcd (which has no authentication) answer
 * on 127.0.0.1 and refuse connections to the machine's other addresses.
 */
class LoopbackControlPlaneTest {

    @Test
    void apiserverAndEtcdListenOnLoopbackOnly() throws Exception {
        LocalCluster cluster = LocalCluster.get();
        int apiserver = URI.create(cluster.apiServerUrl()).getPort();
        int etcd = etcdPort(apiserver);
        InetAddress other = otherAddress().orElse(null);
        Assumptions.assumeTrue(other != null, "this machine has no address besides loopback: nothing to check");

        assertTrue(accepts(InetAddress.getLoopbackAddress(), apiserver), "apiserver on 127.0.0.1:" + apiserver);
        assertTrue(accepts(InetAddress.getLoopbackAddress(), etcd), "etcd on 127.0.0.1:" + etcd);
        assertFalse(accepts(other, apiserver), "apiserver reachable on " + other.getHostAddress() + ":" + apiserver);
        assertFalse(accepts(other, etcd), "etcd reachable on " + other.getHostAddress() + ":" + etcd);
    }

    /** The etcd port the apiserver of that secure port was started with (--etcd-servers). */
    private static int etcdPort(int apiserverPort) {
        return ProcessHandle.allProcesses().map(p -> Arrays.asList(p.info().arguments().orElse(new String[0])))
                .filter(args -> args.indexOf("--secure-port") >= 0
                        && String.valueOf(apiserverPort).equals(args.get(args.indexOf("--secure-port") + 1)))
                .map(args -> args.get(args.indexOf("--etcd-servers") + 1))
                .map(url -> Integer.parseInt(url.substring(url.lastIndexOf(':') + 1))).findFirst()
                .orElseThrow(() -> new IllegalStateException("no apiserver process on port " + apiserverPort));
    }

    private static Optional<InetAddress> otherAddress() throws SocketException {
        return NetworkInterface.networkInterfaces().filter(LoopbackControlPlaneTest::up)
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).findFirst();
    }

    private static boolean up(NetworkInterface i) {
        try {
            return i.isUp() && !i.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }

    private static boolean accepts(InetAddress address, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
