package dev.rekon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * CPU time of processes, from /proc: the application's, and the control plane's (this run's kube-apiserver and its
 * etcd, found by their command lines, so that other apiservers on a shared machine are not counted).
 */
final class Cpu {

    private static final Pattern ETCD_SERVERS = Pattern.compile("--etcd-servers[ =]\\S*?:(\\d+)");

    private Cpu() {
    }

    /** User plus system CPU time of the process so far, in ms; NaN once it is gone. */
    static double millis(long pid) {
        try {
            return ticks(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** CPU time so far of the process's JIT compiler threads, in ms (a native image has none). */
    static double jitMillis(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.mapToDouble(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    return comm.matches("C\\d CompilerThre.*") ? ticks(stat) : 0;
                } catch (IOException | RuntimeException gone) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    /**
     * CPU time so far of the process's threads, in ms, grouped by thread name without its number (the kernel's
     * name, at most 15 characters: {@code C1 CompilerThre}, {@code vert.x-eventloo}, {@code java} for main), largest
     * first: what the process spent its CPU on.
     */
    static Map<String, Double> byThread(long pid) {
        Map<String, Double> groups = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            tasks.forEach(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    groups.merge(comm.replaceAll("[-#]?\\d+$", ""), ticks(stat), Double::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException e) {
            return Map.of();
        }
        Map<String, Double> sorted = new LinkedHashMap<>();
        groups.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** User and system CPU time of the process so far, in ms (NaN once it is gone). */
    static double[] userSystem(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = fields(stat);
            return new double[] {Long.parseLong(f[11]) * 10.0, Long.parseLong(f[12]) * 10.0};
        } catch (IOException | RuntimeException e) {
            return new double[] {Double.NaN, Double.NaN};
        }
    }

    /** Per event, by thread group: {@code after - before} of {@link #byThread}, largest first, the first {@code top}. */
    static String perEventByThread(Map<String, Double> before, Map<String, Double> after, int events, int top) {
        return after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0.0)) / events))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(top)
                .map(e -> String.format("%s %.2f", e.getKey(), e.getValue())).collect(Collectors.joining(", "));
    }

    /** The fields of a {@code /proc/.../stat} line after the command name (which may hold spaces), from state on. */
    private static String[] fields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    private static double ticks(String stat) {
        String[] f = fields(stat);
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10.0;
    }

    /**
     * CPU time of this process's children that ended and were waited for (cutime + cstime), in ms: taken before
     * and after a command, what the command spent.
     */
    static double endedChildrenMillis() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = fields(stat);
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10.0;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    static double millis(List<Long> pids) {
        return pids.stream().mapToDouble(Cpu::millis).sum();
    }

    /** The kube-apiserver serving {@code port} and the etcd it uses; empty when not found. */
    static List<Long> controlPlane(int port) {
        List<Long> out = new ArrayList<>();
        Optional<Process> apiserver = find("kube-apiserver", "--secure-port[ =]" + port + "( |$)");
        apiserver.ifPresent(p -> {
            out.add(p.pid);
            Matcher m = ETCD_SERVERS.matcher(p.cmdline);
            if (m.find()) {
                find("etcd", "--listen-client-urls[ =]\\S*:" + m.group(1) + "( |$)").ifPresent(e -> out.add(e.pid));
            }
        });
        return out;
    }

    private record Process(long pid, String cmdline) {
    }

    private static Optional<Process> find(String command, String argument) {
        Pattern wanted = Pattern.compile(argument);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().matches("\\d+")).map(Cpu::read)
                    .flatMap(Optional::stream)
                    .filter(p -> p.cmdline.split(" ")[0].endsWith("/" + command) || p.cmdline.startsWith(command + " "))
                    .filter(p -> wanted.matcher(p.cmdline).find()).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Process> read(Path proc) {
        try {
            String cmd = Files.readString(proc.resolve("cmdline")).replace('\0', ' ').trim();
            return Optional.of(new Process(Long.parseLong(proc.getFileName().toString()), cmd));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
