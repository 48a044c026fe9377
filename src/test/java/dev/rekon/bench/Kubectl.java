package dev.rekon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.rekon.testing.LocalCluster;

/**
 * The kubectl {@code hack/control-plane.sh} builds beside the apiserver, run against the bench cluster: each
 * command timed from start to exit, and its API requests counted from its own request log ({@code -v=6}).
 */
final class Kubectl {

    private static final Pattern REQUEST = Pattern.compile("(?m)\\] (GET|PATCH|POST|PUT|DELETE) https?://");

    /**
     * Wall time from start to exit, kubectl's own CPU time, the requests it sent, and how many its own rate limiter
     * held back.
     */
    record Run(double millis, double cpuMillis, int requests, int writes, int throttled) {
        /** This run and then {@code next}, as one. */
        Run then(Run next) {
            return new Run(millis + next.millis, cpuMillis + next.cpuMillis, requests + next.requests,
                    writes + next.writes, throttled + next.throttled);
        }
    }

    private final Path binary;
    private final Path kubeconfig;
    private final boolean logRequests;

    Kubectl(Path kubeconfig) {
        this(kubeconfig, true);
    }

    private Kubectl(Path kubeconfig, boolean logRequests) {
        this.binary = LocalCluster.cacheDir().resolve("k8s/" + LocalCluster.VERSION + "-linux-amd64/kubectl");
        this.kubeconfig = kubeconfig;
        this.logRequests = logRequests;
    }

    /** The same without its request log: what logging costs kubectl (its requests then count 0). */
    Kubectl quiet() {
        return new Kubectl(kubeconfig, false);
    }

    /** {@code kubectl apply --server-side} of the manifest. */
    Run applyServerSide(Path manifest) throws IOException, InterruptedException {
        return run("apply", "--server-side", "--field-manager=kubectl-bench", "-f", manifest.toString());
    }

    /** {@code kubectl delete} of the manifest's objects. */
    Run delete(Path manifest) throws IOException, InterruptedException {
        return run("delete", "-f", manifest.toString());
    }

    Run run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--kubeconfig", kubeconfig.toString(),
                logRequests ? "-v=6" : "-v=0"));
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile("kubectl-", ".log");
        try {
            double cpu0 = Cpu.endedChildrenMillis();
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            int code = p.waitFor();
            double millis = (System.nanoTime() - t0) / 1e6;
            double cpu = Cpu.endedChildrenMillis() - cpu0;
            String out = Files.readString(log);
            if (code != 0) {
                throw new IllegalStateException("kubectl exited " + code + ": " + out.lines().filter(l -> !l.startsWith("I"))
                        .reduce("", (a, b) -> a + "\n" + b));
            }
            Matcher m = REQUEST.matcher(out);
            int requests = 0;
            int writes = 0;
            while (m.find()) {
                requests++;
                writes += m.group(1).equals("GET") ? 0 : 1;
            }
            return new Run(millis, cpu, requests, writes, (int) out.lines().filter(l -> l.contains("client-side throttling"))
                    .count());
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
