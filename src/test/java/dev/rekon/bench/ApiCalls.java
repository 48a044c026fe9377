package dev.rekon.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The application's own count of Kubernetes API calls ({@code rekon_api_calls_seconds_count}, by method,
 * resource and status), read from its metrics endpoint: the round trips behind a figure, per event.
 */
final class ApiCalls {

    private static final Pattern LINE = Pattern.compile(
            "^rekon_(stage_)?api_calls_seconds_(count|sum)\\{(.*)} ([0-9.E+-]+)$", Pattern.MULTILINE);
    private static final Pattern TAG = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private ApiCalls() {
    }

    /**
     * {@code "PATCH apps/deployments 200"} → calls so far; the same key with " seconds" → their total time. Calls of
     * the clients Rekon makes for other clusters (a promotion's stages, {@code rekon_stage_api_calls_seconds}) are
     * keyed with a leading {@code "stage "}.
     */
    static Map<String, Double> read(Poster poster) {
        Poster.Answer a = poster.send(HttpRequest.newBuilder(URI.create(poster.root() + "q/metrics")).GET().build());
        Map<String, Double> out = new TreeMap<>();
        Matcher m = LINE.matcher(a.body());
        while (m.find()) {
            Map<String, String> tags = new TreeMap<>();
            Matcher t = TAG.matcher(m.group(3));
            while (t.find()) {
                tags.put(t.group(1), t.group(2));
            }
            String key = (m.group(1) == null ? "" : "stage ") + tags.get("method") + " " + tags.get("resource") + " "
                    + tags.get("status");
            out.merge(m.group(2).equals("sum") ? key + " seconds" : key, Double.parseDouble(m.group(4)), Double::sum);
        }
        return out;
    }

    /** Calls per event between two readings, e.g. {@code "PATCH apps/deployments 200" → 1.00}. */
    static Map<String, Double> perEvent(Map<String, Double> before, Map<String, Double> after, int events) {
        Map<String, Double> out = new TreeMap<>();
        after.forEach((k, v) -> {
            double d = v - before.getOrDefault(k, 0.0);
            if (d > 0 && !k.endsWith(" seconds")) {
                out.put(k, Math.round(d / events * 100) / 100.0);
            }
        });
        return out;
    }

    /** The mean time in ms of one kind of call between two readings, as the application measured it. */
    static double meanMillis(Map<String, Double> before, Map<String, Double> after, String key) {
        double n = after.getOrDefault(key, 0.0) - before.getOrDefault(key, 0.0);
        double s = after.getOrDefault(key + " seconds", 0.0) - before.getOrDefault(key + " seconds", 0.0);
        return n == 0 ? Double.NaN : s / n * 1000;
    }

    static String describe(Map<String, Double> perEvent) {
        double total = perEvent.values().stream().mapToDouble(Double::doubleValue).sum();
        StringBuilder sb = new StringBuilder(String.format("%.2f:", total));
        perEvent.forEach((k, v) -> sb.append(String.format(" %s %.2f;", k, v)));
        return sb.toString();
    }
}
