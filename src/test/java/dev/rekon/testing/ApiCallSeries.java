package dev.rekon.testing;

import static io.restassured.RestAssured.given;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The application's Kubernetes API calls so far, per series of its timer (method, resource, status), from /q/metrics. */
public final class ApiCallSeries {

    private static final Pattern COUNT = Pattern.compile(
            "(?m)^rekon_api_calls_seconds_count(\\{[^}]*}) ([0-9.E+-]+)$");

    private ApiCallSeries() {
    }

    public static Map<String, Double> now() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = COUNT.matcher(metrics);
        Map<String, Double> series = new TreeMap<>();
        while (m.find()) {
            series.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        return series;
    }

    /** The series that grew (or shrank) between two readings, by how much. */
    public static Map<String, Double> grown(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> grown = new TreeMap<>();
        after.forEach((series, n) -> {
            double d = n - before.getOrDefault(series, 0.0);
            if (d != 0) {
                grown.put(series, d);
            }
        });
        return grown;
    }

    /**
     * The calls of the series {@code counted} that {@code action} made, measured in up to 3 windows the application
     * was quiet before (no call for 3 s): none as soon as one window saw none; else what each window saw. What the
     * tests' objects set off (status passes, reschedules, other classes' keys) makes calls of its own, unrelated to
     * the action; an action that makes a call makes it in every window.
     */
    public static List<String> madeBy(Runnable action, Predicate<String> counted) {
        List<String> windows = new ArrayList<>();
        for (int attempt = 0; attempt < 3; attempt++) {
            Map<String, Double> before = quiet();
            action.run();
            Map<String, Double> made = new TreeMap<>(grown(before, now()));
            made.keySet().removeIf(counted.negate());
            if (made.isEmpty()) {
                return List.of();
            }
            windows.add(made.toString());
        }
        return windows;
    }

    /** The calls so far, once none was made for 3 s (at most 60 s). */
    public static Map<String, Double> quiet() {
        return quiet(ApiCallSeries::now, Duration.ofSeconds(3), Duration.ofSeconds(60));
    }

    /**
     * The reading, once it has not changed for {@code quietFor} (polled every {@code quietFor} / 12, at most 250
     * ms), or when {@code atMost} has passed: the calls of one or several processes, read however they are.
     */
    public static <T> T quiet(Supplier<T> reading, Duration quietFor, Duration atMost) {
        long poll = Math.min(250, quietFor.toMillis() / 12);
        T last = reading.get();
        long quietSince = System.nanoTime();
        long end = quietSince + atMost.toNanos();
        while (System.nanoTime() - quietSince < quietFor.toNanos() && System.nanoTime() < end) {
            try {
                Thread.sleep(poll);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            T now = reading.get();
            if (!now.equals(last)) {
                last = now;
                quietSince = System.nanoTime();
            }
        }
        return last;
    }
}
