package dev.rekon.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.rekon.testing.LocalCluster;
import dev.rekon.testing.SharedFiles;

/**
 * Cold starts of several packaged applications (e.g. two commits' {@code target/quarkus-app}, copied aside) taken in
 * turns on one cluster, so that the load of the moment falls on each alike: start → first Image event answered
 * {@code applied} and the CPU until then, by thread, as in {@link ColdBench}.
 * <pre>hack/driver.sh dev.rekon.bench.ColdCompare IMAGEDEPLOYS ROUNDS LABEL=APP_DIR[|MORE_JAVA_OPTS] ...</pre>
 * Each process gets {@code JAVA_OPTS=-XX:MaxRAM=512m} and the options after {@code |}; logs go to
 * {@code target/bench/compare/}.
 */
public final class ColdCompare {

    private record Run(double firstMillis, double cpuMillis, Map<String, Double> threads) {
    }

    private ColdCompare() {
    }

    public static void main(String[] args) throws Exception {
        Path project = SharedFiles.projectDir();
        Path out = Files.createDirectories(project.resolve("target/bench/compare"));
        ColdBench b = new ColdBench(LocalCluster.get(), project, out);
        b.populate(Integer.parseInt(args[0]));
        int rounds = Integer.parseInt(args[1]);
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (int i = 2; i < args.length; i++) {
                String label = args[i].substring(0, args[i].indexOf('='));
                String[] app = args[i].substring(label.length() + 1).split("\\|", 2);
                String opts = App.JAVA_OPTS + (app.length > 1 ? " " + app[1] : "");
                Run run = once(b, App.start(project, Path.of(app[0]), Map.of("JAVA_OPTS", opts), b.kubeconfig,
                        out.resolve(label + "-" + r + ".log")));
                runs.computeIfAbsent(label, k -> new ArrayList<>()).add(run);
                System.out.printf("[compare] %s, round %d: first event %.0f ms, CPU %.0f ms, by thread %s%n", label,
                        r + 1, run.firstMillis(), run.cpuMillis(), run.threads());
            }
        }
        System.out.println("\n| app | start → first event applied, median (all) | CPU until then, median | by thread (median ms) |");
        System.out.println("|---|---|---|---|");
        runs.forEach((label, list) -> System.out.printf("| %s | %.0f ms (%s) | %.0f ms | %s |%n", label,
                ColdBench.median(list.stream().map(Run::firstMillis).toList()),
                String.join(", ", list.stream().map(x -> String.format("%.0f", x.firstMillis())).toList()),
                ColdBench.median(list.stream().map(Run::cpuMillis).toList()),
                ColdBench.threadMedians(list.stream().map(Run::threads).toList())));
        System.exit(0);
    }

    private static Run once(ColdBench b, App app) {
        try {
            Poster poster = new Poster(app.port());
            Poster.Answer a;
            do {
                a = b.post(poster, "target", b.builds.get("target").incrementAndGet());
                if (!app.isAlive()) {
                    throw new IllegalStateException("the application exited; see its log under target/bench/compare/");
                }
                if (a.status() == 0) {
                    SecondApiServer.sleep(5);
                }
            } while (a.status() == 0);
            Run run = new Run((System.nanoTime() - app.startedNanos()) / 1e6, Cpu.millis(app.pid()), Cpu.byThread(app.pid()));
            Bench.require(a, "\"applied\"");
            return run;
        } finally {
            app.stop();
        }
    }
}
